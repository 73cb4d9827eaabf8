/**
 * Place names from the bundled gazetteer, on a canvas: cities thinned by zoom (larger ones first,
 * by their number of ZIP codes) and decluttered so no two labels overlap. Drawn with fillText.
 */
import type { Gazetteer } from '../../gazetteer';
import { CanvasLayer } from '../canvasLayer';
import type { MapTheme } from './theme';

/** The fewest ZIP codes a city needs to be labelled at a zoom. */
export function minZipsAt(zoom: number): number {
  if (zoom <= 4) return 40;
  if (zoom === 5) return 15;
  if (zoom === 6) return 6;
  if (zoom === 7) return 3;
  if (zoom === 8) return 2;
  return 1;
}

const MAX_LABELS = 250;

export class PlaceLabels extends CanvasLayer {
  constructor(
    private readonly places: Gazetteer,
    private readonly theme: MapTheme,
  ) {
    super({ pane: 'blotter-labels', timing: 'frame' });
  }

  protected onViewChanged(): void {
    const map = this.map;
    const ctx = this.context();
    if (!map || !ctx) return;
    const g = this.places;
    const zoom = map.getZoom();
    const min = minZipsAt(zoom);
    const b = map.getBounds().pad(0.05);
    const size = map.getSize();
    const taken: [number, number, number, number][] = [];
    const big = zoom >= 9 ? 12 : 13;
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    let drawn = 0;
    for (let i = 0; i < g.cityName.length && drawn < MAX_LABELS; i++) {
      const zips = g.cityZips[i] as number;
      if (zips < min) break; // cities come largest first
      const lat = g.cityLat[i] as number;
      const lon = g.cityLon[i] as number;
      if (lat < b.getSouth() || lat > b.getNorth() || lon < b.getWest() || lon > b.getEast()) continue;
      const p = map.latLngToContainerPoint([lat, lon]);
      const text = g.cityName[i] as string;
      const major = zips >= min * 4;
      ctx.font = `${major ? 600 : 500} ${major ? big : 11}px system-ui, sans-serif`;
      const w = ctx.measureText(text).width;
      const box: [number, number, number, number] = [p.x + 4, p.y - 8, p.x + 8 + w, p.y + 8];
      if (box[2] > size.x || box[1] < 0 || box[3] > size.y) continue;
      if (taken.some((t) => box[0] < t[2] && box[2] > t[0] && box[1] < t[3] && box[3] > t[1])) continue;
      taken.push(box);
      drawn++;
      ctx.fillStyle = this.theme.label;
      ctx.beginPath();
      ctx.arc(p.x, p.y, major ? 2.5 : 2, 0, Math.PI * 2);
      ctx.fill();
      ctx.lineWidth = 3;
      ctx.strokeStyle = this.theme.labelHalo;
      ctx.strokeText(text, p.x + 6, p.y);
      ctx.fillText(text, p.x + 6, p.y);
    }
  }
}
