/**
 * The heat layer's picture, computed off the main thread: incidents binned into a coarse grid of the
 * visible map, blurred (a separable Gaussian), scaled by the square root of density (so one busy
 * corner does not wash out the rest) and coloured along a ramp. The page scales the small image up.
 */
import type { Sites } from './sites';

export type HeatView = {
  /** Top-left of the view in world pixels at `zoom` (Leaflet's pixel origin). */
  left: number;
  top: number;
  width: number;
  height: number;
  zoom: number;
};

export type HeatImage = { width: number; height: number; cell: number; data: Uint8ClampedArray; max: number };

export const HEAT_CELL_PX = 4;
const BLUR_CELLS = 4;

// Transparent → blue → cyan → yellow → red: the familiar density ramp, stops at 0, .25, .5, .75, 1.
export const HEAT_STOPS: [number, number, number, number, number][] = [
  [0, 0, 0, 255, 0],
  [0.2, 0, 90, 255, 150],
  [0.45, 0, 200, 200, 190],
  [0.7, 255, 220, 0, 215],
  [1, 220, 20, 20, 235],
];

/**
 * The heat legend's bar: the ramp's colours left (few incidents) to right (the view's densest
 * spot), as a CSS gradient. Transparency is dropped (the bar sits on the legend's card, not the map).
 */
export function heatGradientCss(): string {
  const stops = HEAT_STOPS.slice(1).map(([at, r, g, b]) => `rgb(${r} ${g} ${b}) ${Math.round(at * 100)}%`);
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

export const HEAT_RAMP: Uint8ClampedArray = (() => {
  const ramp = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    const v = i / 255;
    let k = 0;
    while (k < HEAT_STOPS.length - 2 && v > (HEAT_STOPS[k + 1] as number[])[0]!) k++;
    const a = HEAT_STOPS[k] as number[];
    const b = HEAT_STOPS[k + 1] as number[];
    const f = Math.min(1, Math.max(0, (v - a[0]!) / (b[0]! - a[0]!)));
    for (let c = 0; c < 4; c++) ramp[i * 4 + c] = a[c + 1]! + (b[c + 1]! - a[c + 1]!) * f;
  }
  return ramp;
})();

function kernel(radius: number): Float32Array {
  const k = new Float32Array(radius * 2 + 1);
  const sigma = radius / 2;
  let sum = 0;
  for (let i = -radius; i <= radius; i++) sum += k[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] = (k[i] as number) / sum;
  return k;
}

function blur(grid: Float32Array, w: number, h: number, radius: number): Float32Array {
  const k = kernel(radius);
  const tmp = new Float32Array(grid.length);
  const out = new Float32Array(grid.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let j = -radius; j <= radius; j++) {
        const xx = x + j;
        if (xx >= 0 && xx < w) v += (grid[y * w + xx] as number) * (k[j + radius] as number);
      }
      tmp[y * w + x] = v;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let j = -radius; j <= radius; j++) {
        const yy = y + j;
        if (yy >= 0 && yy < h) v += (tmp[yy * w + x] as number) * (k[j + radius] as number);
      }
      out[y * w + x] = v;
    }
  }
  return out;
}

export function heatImage(sites: Sites, view: HeatView, cell = HEAT_CELL_PX): HeatImage {
  const w = Math.max(1, Math.ceil(view.width / cell));
  const h = Math.max(1, Math.ceil(view.height / cell));
  const grid = new Float32Array(w * h);
  const scale = 256 * 2 ** view.zoom;
  for (let i = 0; i < sites.size; i++) {
    const gx = Math.floor(((sites.x[i] as number) * scale - view.left) / cell);
    const gy = Math.floor(((sites.y[i] as number) * scale - view.top) / cell);
    if (gx < 0 || gy < 0 || gx >= w || gy >= h) continue;
    const k = gy * w + gx;
    grid[k] = (grid[k] as number) + (sites.count[i] as number);
  }
  const smooth = blur(grid, w, h, BLUR_CELLS);
  let max = 0;
  for (let i = 0; i < smooth.length; i++) if ((smooth[i] as number) > max) max = smooth[i] as number;
  const data = new Uint8ClampedArray(w * h * 4);
  const top = Math.sqrt(max) || 1;
  for (let i = 0; i < smooth.length; i++) {
    const v = smooth[i] as number;
    if (v <= 0) continue;
    const r = Math.min(255, Math.round((Math.sqrt(v) / top) * 255)) * 4;
    data[i * 4] = HEAT_RAMP[r] as number;
    data[i * 4 + 1] = HEAT_RAMP[r + 1] as number;
    data[i * 4 + 2] = HEAT_RAMP[r + 2] as number;
    data[i * 4 + 3] = HEAT_RAMP[r + 3] as number;
  }
  return { width: w, height: h, cell, data, max };
}
