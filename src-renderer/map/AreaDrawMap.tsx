/**
 * A map for drawing and showing areas (the Areas view's): the offline basemap, saved areas as
 * outlines, an optional preview shape (e.g. a circle around a searched city), and drawing a circle
 * or polygon while `drawMode` says so. Each finished shape goes to `onShapeDrawn` as an AreaShape.
 */
import * as L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import type { AreaShape } from '../../src-shared/sync';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { addAreaOutlines, shapeLayer, shapesBounds } from './areaOutlines';
import { mapTheme } from './basemap/theme';
import { useBasemap } from './basemap/useBasemap';
import { useMapDrawing, type DrawMode } from './drawing';
import { useLeafletMap } from './useLeafletMap';
import styles from './map.module.css';

export type AreaDrawMapProps = {
  drawMode: DrawMode;
  onShapeDrawn: (shape: AreaShape) => void;
  /** Shapes shown as dashed outlines (the saved areas); the first view fits them. */
  areas?: AreaShape[];
  /** One shape drawn solid, e.g. the area being created from a searched place; the map moves to it. */
  preview?: AreaShape | null;
  /** Moves the map here (a searched place) when it changes. */
  focus?: { lat: number; lon: number; zoom?: number } | null;
  className?: string;
};

export function AreaDrawMap({
  drawMode,
  onShapeDrawn,
  areas = [],
  preview = null,
  focus = null,
  className,
}: AreaDrawMapProps) {
  const theme = useMemo(mapTheme, []);
  const { client } = useWorkspace();
  const { ref, map } = useLeafletMap(theme.water);
  const basemap = useBasemap(map, client, theme, { labels: true, streets: true });
  const fitted = useRef(false);
  useMapDrawing(map, drawMode, onShapeDrawn);

  useEffect(
    () => (map && areas.length ? addAreaOutlines(map, areas, theme.label) : undefined),
    [map, areas, theme],
  );

  useEffect(() => {
    if (!map || fitted.current) return;
    const bounds = shapesBounds(areas);
    if (bounds) {
      fitted.current = true;
      map.fitBounds(bounds, { padding: [24, 24], animate: false });
    }
  }, [map, areas]);

  useEffect(() => {
    if (!map || !preview) return;
    const layer = shapeLayer(preview, L.canvas({ pane: 'blotter-areas' }), '#1f5fbf');
    layer.setStyle({ dashArray: '', fillOpacity: 0.12 });
    layer.addTo(map);
    map.fitBounds(shapesBounds([preview]) ?? map.getBounds(), { padding: [24, 24], maxZoom: 14 });
    return () => void layer.remove();
  }, [map, preview]);

  useEffect(() => {
    if (map && focus) map.setView([focus.lat, focus.lon], focus.zoom ?? 11);
  }, [map, focus]);

  return (
    <div
      className={[styles.areaDrawMap, className].filter(Boolean).join(' ')}
      data-testid="area-draw-map"
      data-draw-mode={drawMode}
    >
      <div ref={ref} className={styles.mapCanvas} role="region" aria-label="Map for drawing an area" />
      <p className={styles.mapAttribution}>{basemap.attribution.join(' · ')}</p>
    </div>
  );
}
