/**
 * Keeps where the map is in the data folder's settings (`mapView`), so the next launch opens there
 * (the web host's origin changes every launch, so not localStorage). Saved a second after the map
 * stops moving.
 */
import type * as L from 'leaflet';
import { useEffect } from 'react';
import type { Client } from '../bridge/client';

export const SAVE_VIEW_AFTER_MS = 1000;

export function useSavedMapView(map: L.Map | null, client: Client): void {
  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const c = map.getCenter();
        const mapView = {
          lat: Math.round(c.lat * 1e5) / 1e5,
          lon: Math.round(c.lng * 1e5) / 1e5,
          zoom: Math.round(map.getZoom()),
        };
        client.call('updateSettings', { mapView }).catch(() => undefined);
      }, SAVE_VIEW_AFTER_MS);
    };
    map.on('moveend', save);
    return () => {
      clearTimeout(timer);
      map.off('moveend', save);
    };
  }, [map, client]);
}
