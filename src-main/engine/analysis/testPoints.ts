/** Synthetic incidents for the analysis tests: seeded, in metres or lat/lon around a city. */
import { UtmProjection } from '../../../src-shared/geo';
import { seededRandom } from './random';

/** Chicago's zone (16N); test points are placed in metres around this centre. */
export const TEST_UTM = new UtmProjection(16);
export const CENTRE_X = 447_000;
export const CENTRE_Y = 4_636_000;

export type MetrePoints = { x: Float64Array; y: Float64Array };

/** `n` points uniform over a square of `side` metres centred on the test centre. */
export function uniformPoints(n: number, side: number, seed: number): MetrePoints {
  const random = seededRandom(seed);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = CENTRE_X + (random() - 0.5) * side;
    y[i] = CENTRE_Y + (random() - 0.5) * side;
  }
  return { x, y };
}

export function concat(a: MetrePoints, b: MetrePoints): MetrePoints {
  const x = new Float64Array(a.x.length + b.x.length);
  const y = new Float64Array(x.length);
  x.set(a.x);
  x.set(b.x, a.x.length);
  y.set(a.y);
  y.set(b.y, a.y.length);
  return { x, y };
}

/** `n` points uniform in a disc of `radius` metres around (cx, cy). */
export function discPoints(n: number, cx: number, cy: number, radius: number, seed: number): MetrePoints {
  const random = seededRandom(seed);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = radius * Math.sqrt(random());
    const a = 2 * Math.PI * random();
    x[i] = cx + r * Math.cos(a);
    y[i] = cy + r * Math.sin(a);
  }
  return { x, y };
}

/** The same points in lat/lon. */
export function toLatLon(p: MetrePoints): { lat: Float64Array; lon: Float64Array } {
  const lat = new Float64Array(p.x.length);
  const lon = new Float64Array(p.x.length);
  for (let i = 0; i < lat.length; i++) {
    const [la, lo] = TEST_UTM.inverse(p.x[i] as number, p.y[i] as number);
    lat[i] = la;
    lon[i] = lo;
  }
  return { lat, lon };
}
