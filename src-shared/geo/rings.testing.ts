/**
 * Tests and benches only: rings that make the self-crossing check work (polygon.ts
 * `selfIntersects`) — a wavy ring, simple whatever its size, and a comb of teeth finer than a cell —
 * and the all-pairs check it replaced, to compare with.
 */
import type { LatLon } from './bbox';
import { segmentsIntersect } from './polygon';

/** The check `selfIntersects` replaced, to compare with: every pair of non-adjacent edges. */
export function allPairsCross(ring: readonly LatLon[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (segmentsIntersect(ring[i]!, ring[(i + 1) % n]!, ring[j]!, ring[(j + 1) % n]!)) return true;
    }
  return false;
}

/** A simple ring of `corners` around a centre, its radius waving 37 times by a fifth. */
export function wavyRing(corners: number, lat = 41.85, lon = -87.65, size = 0.01): LatLon[] {
  return Array.from({ length: corners }, (_, k) => {
    const a = (k / corners) * 2 * Math.PI;
    const r = size * (1 + 0.2 * Math.sin(37 * a));
    return [lat + r * Math.sin(a), lon + r * Math.cos(a)] as LatLon;
  });
}

/** A comb of `teeth` thin upright teeth on a spine (4 corners a tooth, 2 for the spine): simple. */
export function comb(teeth: number): LatLon[] {
  const up: LatLon[] = [];
  const w = 0.01 / teeth;
  for (let t = 0; t < teeth; t++) {
    const x = -87.7 + t * w;
    up.push([41.9, x], [41.95, x + w * 0.25], [41.95, x + w * 0.5], [41.9, x + w * 0.75]);
  }
  return [...up, [41.89, -87.7 + teeth * w], [41.89, -87.7]];
}

/**
 * The zig-zag star: `corners` corners alternating between circles of `innerM` and `outerM` metres
 * around one centre (spikes ~2.5 cm apart at 250,000 corners): simple, and no grid separates it.
 */
export function zigzagStar(
  corners: number,
  lat = 41.85,
  lon = -87.65,
  innerM = 1000,
  outerM = 1010,
): LatLon[] {
  const metresPerDegreeLat = 111_320;
  const metresPerDegreeLon = metresPerDegreeLat * Math.cos((lat * Math.PI) / 180);
  return Array.from({ length: corners }, (_, k) => {
    const a = (k / corners) * 2 * Math.PI;
    const r = k % 2 === 0 ? innerM : outerM;
    return [
      lat + (r * Math.sin(a)) / metresPerDegreeLat,
      lon + (r * Math.cos(a)) / metresPerDegreeLon,
    ] as LatLon;
  });
}

/** The star with corners k and k + 2 swapped: the spike between them crosses the edge over it. */
export function crossedStar(star: readonly LatLon[], k: number): LatLon[] {
  const out = [...star];
  [out[k], out[k + 2]] = [out[k + 2]!, out[k]!];
  return out;
}
