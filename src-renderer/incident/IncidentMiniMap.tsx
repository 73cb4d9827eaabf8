/**
 * The incident panel's mini-map: a small map centred on the incident at street zoom, its mark in
 * its type's colour, over the same basemap as the Map view (useBasemap: the bundled boundaries, and
 * the streets of the user's file or the areas' offline extract with their attribution). Loaded
 * lazily with Leaflet, so the Table view pays for it only when an incident opens.
 */
import * as L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { mapTheme } from '../map/basemap/theme';
import { useBasemap } from '../map/basemap/useBasemap';
import { useLeafletMap } from '../map/useLeafletMap';
import { useWorkspace } from '../workspace/WorkspaceContext';
import styles from './incident.module.css';

export const MINI_MAP_ZOOM = 16;

export type IncidentMiniMapProps = { lat: number; lon: number; colour: string; label: string };

export default function IncidentMiniMap({ lat, lon, colour, label }: IncidentMiniMapProps) {
  const theme = useMemo(mapTheme, []);
  const { client } = useWorkspace();
  const { ref, map } = useLeafletMap(theme.land, { lat, lon, zoom: MINI_MAP_ZOOM });
  const basemap = useBasemap(map, client, theme, { labels: false, streets: true });

  useEffect(() => {
    if (!map) return;
    map.setView([lat, lon], MINI_MAP_ZOOM, { animate: false });
    const mark = L.circleMarker([lat, lon], {
      pane: 'blotter-clusters',
      renderer: L.canvas({ pane: 'blotter-clusters' }),
      radius: 7,
      color: theme.marks.halo,
      weight: 2,
      fillColor: colour,
      fillOpacity: 1,
      interactive: false,
    }).addTo(map);
    return () => void mark.remove();
  }, [map, lat, lon, colour, theme]);

  const streets = basemap.info?.status === 'ready';
  return (
    <figure className={styles.miniMap} data-testid="incident-minimap" data-streets={streets ? 'on' : 'off'}>
      <div ref={ref} className={styles.miniMapCanvas} role="img" aria-label={`Map around ${label}`} />
      <figcaption className={styles.miniMapAttribution} data-testid="incident-minimap-attribution">
        {/* The streets' credit when they are drawn (the small map has room for one line). */}
        {(streets ? basemap.attribution.slice(0, 1) : basemap.attribution).join(' · ')}
      </figcaption>
    </figure>
  );
}
