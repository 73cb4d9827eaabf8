/**
 * Drawing an area on a map (circle or polygon) with leaflet-geoman, loaded only when a map first
 * draws. The drawn layer becomes an AreaShape (src-shared/sync.ts: circles in miles, polygons as
 * [lat, lon] corners) — exactly what createArea and the area filter take.
 */
import * as L from 'leaflet';
import { useRef } from 'react';
import type { AreaShape } from '../../src-shared/sync';
import { useCurrentEffect } from '../bridge/useCall';
import { circleShape, polygonShape } from './shapes';

export type DrawMode = 'none' | 'circle' | 'polygon';

/** The shape of a layer geoman drew, or null for anything else. */
export function shapeOfLayer(layer: L.Layer): AreaShape | null {
  if (layer instanceof L.Circle) return circleShape(layer.getLatLng(), layer.getRadius());
  if (layer instanceof L.Polygon) {
    const rings = layer.getLatLngs() as L.LatLng[][];
    const outer = rings[0] ?? [];
    return outer.length >= 3 ? polygonShape(outer) : null;
  }
  return null;
}

type PmMap = {
  enableDraw(shape: 'Circle' | 'Polygon', options?: Record<string, unknown>): void;
  disableDraw(): void;
  setGlobalOptions?(options: Record<string, unknown>): void;
};

let geoman: Promise<void> | null = null;

/** Loads leaflet-geoman (it extends the global `L`, so a mutable copy of Leaflet is put there first). */
export function loadGeoman(): Promise<void> {
  geoman ??= (async () => {
    const w = window as unknown as { L?: unknown };
    w.L ??= { ...L };
    await import('@geoman-io/leaflet-geoman-free');
    await import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css');
  })();
  return geoman;
}

async function pmOf(map: L.Map): Promise<PmMap> {
  await loadGeoman();
  const holder = map as unknown as { pm?: PmMap };
  if (!holder.pm) {
    // A map made before geoman loaded missed its init hook: attach its drawing toolkit now.
    const PM = (window as unknown as { L: { PM: { Map: new (m: L.Map) => PmMap } } }).L.PM;
    holder.pm = new PM.Map(map);
  }
  return holder.pm;
}

/**
 * While `mode` is circle or polygon, the user draws that shape on `map`; each finished shape is
 * handed to `onShapeDrawn` and stays on the map as a preview until the mode changes.
 */
export function useMapDrawing(
  map: L.Map | null,
  mode: DrawMode,
  onShapeDrawn: (shape: AreaShape) => void,
  colour = '#1f5fbf',
): void {
  const callback = useRef(onShapeDrawn);
  callback.current = onShapeDrawn;

  useCurrentEffect(
    (current) => {
      if (!map || mode === 'none') return;
      let preview: L.Layer | null = null;
      let pm: PmMap | null = null;
      const created = (event: L.LeafletEvent) => {
        const layer = (event as L.LeafletEvent & { layer: L.Layer }).layer;
        const shape = shapeOfLayer(layer);
        preview?.remove();
        preview = layer;
        if (shape) callback.current(shape);
        if (pm && current()) pm.enableDraw(mode === 'circle' ? 'Circle' : 'Polygon', drawOptions(colour));
      };
      void pmOf(map).then((found) => {
        if (!current()) return;
        pm = found;
        map.on('pm:create', created);
        found.enableDraw(mode === 'circle' ? 'Circle' : 'Polygon', drawOptions(colour));
      });
      return () => {
        map.off('pm:create', created);
        pm?.disableDraw();
        preview?.remove();
      };
    },
    [map, mode, colour],
  );
}

const drawOptions = (colour: string) => ({
  snappable: false,
  continueDrawing: false,
  finishOn: null,
  templineStyle: { color: colour },
  hintlineStyle: { color: colour, dashArray: '5 5' },
  pathOptions: { color: colour, weight: 2, fillOpacity: 0.08, pane: 'blotter-drawing' },
});
