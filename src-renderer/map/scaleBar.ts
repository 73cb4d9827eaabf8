/**
 * The map's scale bar, in the units of the user's locale: miles and feet where roads are measured
 * so (the United States, Liberia, Myanmar), kilometres and metres everywhere else.
 */
import * as L from 'leaflet';
import { useEffect } from 'react';
import { usesMiles } from './scaleUnits';

/** Adds the scale bar (bottom left, under the playback opener) for as long as the map lives. */
export function useScaleBar(map: L.Map | null, locale: string = navigator.language): void {
  useEffect(() => {
    if (!map) return;
    const miles = usesMiles(locale);
    const scale = L.control.scale({ position: 'bottomleft', imperial: miles, metric: !miles, maxWidth: 140 });
    scale.addTo(map);
    scale.getContainer()?.setAttribute('data-testid', 'map-scale');
    return () => void scale.remove();
  }, [map, locale]);
}
