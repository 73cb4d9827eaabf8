/** Saved areas as dashed outlines (canvas, not interactive): what is being watched and synced. */
import * as L from 'leaflet';
import { METRES_PER_MILE } from '../../src-shared/geo';
import type { AreaShape } from '../../src-shared/sync';

export function shapeLayer(shape: AreaShape, renderer: L.Renderer, colour: string): L.Path {
  const style: L.PathOptions = {
    renderer,
    interactive: false,
    color: colour,
    weight: 2,
    dashArray: '6 4',
    fill: true,
    fillOpacity: 0.04,
    pane: 'blotter-areas',
  };
  return shape.kind === 'circle'
    ? L.circle([shape.lat, shape.lon], { ...style, radius: shape.radiusMi * METRES_PER_MILE })
    : L.polygon(shape.points, style);
}

/** The bounds of every shape, or null for none. */
export function shapesBounds(shapes: AreaShape[]): L.LatLngBounds | null {
  let bounds: L.LatLngBounds | null = null;
  for (const shape of shapes) {
    const b =
      shape.kind === 'circle'
        ? L.latLng(shape.lat, shape.lon).toBounds(shape.radiusMi * METRES_PER_MILE * 2)
        : L.latLngBounds(shape.points);
    bounds = bounds ? bounds.extend(b) : b;
  }
  return bounds;
}

export function addAreaOutlines(map: L.Map, shapes: AreaShape[], colour: string): () => void {
  const renderer = L.canvas({ pane: 'blotter-areas', padding: 0.2 });
  const group = L.layerGroup(shapes.map((s) => shapeLayer(s, renderer, colour))).addTo(map);
  return () => void group.remove();
}
