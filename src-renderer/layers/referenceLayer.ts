/**
 * A reference layer on the map: polygons (holes and parts kept) as thin outlines and points as small
 * rings, on a canvas renderer (no DOM node per feature), and the features' names drawn with fillText
 * on a label canvas (no bindTooltip: names are the file's text, never HTML). The chosen feature is
 * drawn heavier, and a distance around points or polygons (the buffer) as a dashed ring where given.
 * The label layer's canvas says how many names it drew (`data-labels-drawn`) for tests.
 */
import * as L from 'leaflet';
import { centroid, circleRing, ringArea2, type LatLon } from '../../src-shared/geo';
import type { LayerFeatureView } from '../../src-shared/layerCalls';
import { CanvasLayer } from '../map/canvasLayer';

export type LabelTheme = { label: string; labelHalo: string };

/** Where a feature's name goes: a point's position, or the centroid of its largest part. */
export function labelPoint(f: LayerFeatureView): LatLon | null {
  const g = f.geometry;
  if (g.kind === 'points') return g.points[0] ?? null;
  let best: LatLon[] | null = null;
  let bestArea = -1;
  for (const rings of g.polygons) {
    const outer = rings[0];
    if (!outer) continue;
    const a = Math.abs(ringArea2(outer));
    if (a > bestArea) {
      bestArea = a;
      best = outer;
    }
  }
  return best ? centroid(best) : null;
}

export class FeatureLabels extends CanvasLayer {
  drawn = 0;
  constructor(
    private readonly labels: { at: LatLon; text: string }[],
    private readonly theme: LabelTheme,
  ) {
    super({ pane: 'blotter-labels', timing: 'frame' });
  }

  protected onViewChanged(): void {
    const map = this.map;
    const ctx = this.context();
    if (!map || !ctx) return;
    const b = map.getBounds();
    const size = map.getSize();
    const taken: [number, number, number, number][] = [];
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    ctx.lineJoin = 'round';
    ctx.font = '600 12px system-ui, sans-serif';
    let drawn = 0;
    for (const { at, text } of this.labels) {
      if (!b.contains([at[0], at[1]])) continue;
      const p = map.latLngToContainerPoint([at[0], at[1]]);
      const w = ctx.measureText(text).width;
      const box: [number, number, number, number] = [p.x - w / 2 - 2, p.y - 8, p.x + w / 2 + 2, p.y + 8];
      if (box[0] < 0 || box[2] > size.x || box[1] < 0 || box[3] > size.y) continue;
      if (taken.some((t) => box[0] < t[2] && box[2] > t[0] && box[1] < t[3] && box[3] > t[1])) continue;
      taken.push(box);
      ctx.lineWidth = 3;
      ctx.strokeStyle = this.theme.labelHalo;
      ctx.strokeText(text, p.x, p.y);
      ctx.fillStyle = this.theme.label;
      ctx.fillText(text, p.x, p.y);
      drawn++;
    }
    this.drawn = drawn;
    this.canvas?.setAttribute('data-labels-drawn', String(drawn));
    this.canvas?.setAttribute('data-testid', 'layer-labels');
  }
}

export type DrawOptions = {
  colour: string;
  theme: LabelTheme;
  /** The feature a filter names: drawn heavier. */
  selectedId?: number | null;
  /** A distance in metres drawn around points (dashed rings). */
  bufferM?: number;
};

/** Draws a layer's features and names on the map; returns what removes them. */
export function drawReferenceLayer(
  map: L.Map,
  features: LayerFeatureView[],
  options: DrawOptions,
): () => void {
  const renderer = L.canvas({ pane: 'blotter-areas', padding: 0.2 });
  const layers: L.Layer[] = [];
  for (const f of features) {
    const selected = f.id === options.selectedId;
    const style: L.PathOptions = {
      renderer,
      interactive: false,
      color: options.colour,
      weight: selected ? 3.5 : 1.5,
      opacity: 0.9,
      fill: true,
      fillOpacity: selected ? 0.12 : 0.03,
      pane: 'blotter-areas',
    };
    const g = f.geometry;
    if (g.kind === 'polygons') {
      const latlngs = g.polygons.map((rings) => rings.map((r) => r.map(([a, b]) => L.latLng(a, b))));
      layers.push(L.polygon(latlngs, style));
    } else {
      for (const [lat, lon] of g.points) {
        layers.push(L.circleMarker([lat, lon], { ...style, radius: selected ? 6 : 4, fillOpacity: 0.6 }));
        if (options.bufferM && options.bufferM > 0)
          layers.push(
            L.polygon(
              circleRing(lat, lon, options.bufferM).map(([a, b]) => L.latLng(a, b)),
              { ...style, dashArray: '5 4', weight: 1.5, fillOpacity: 0.04 },
            ),
          );
      }
    }
  }
  const group = L.layerGroup(layers).addTo(map);
  const labels = new FeatureLabels(
    features.flatMap((f) => {
      const at = labelPoint(f);
      return at ? [{ at, text: f.name }] : [];
    }),
    options.theme,
  ).addTo(map);
  return () => {
    group.remove();
    labels.remove();
  };
}

/** A few colours that read on light and dark maps, one per layer in turn. */
export const LAYER_COLOURS = ['#7b3fb8', '#0b7a75', '#b5651d', '#2f5fb3', '#a33b5c'];
