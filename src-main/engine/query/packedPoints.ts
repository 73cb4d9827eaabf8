/**
 * Rows of the snapshot as packed point columns (typed arrays, not objects) — the map's points
 * (mapPoints.ts) and the time playback's (analysis/playback.ts) alike: latitude, longitude and a
 * type index per row, the types indexed in the order of first appearance (≤ 256 by construction
 * unless an archive holds more distinct types, which then share the last slot "Other types").
 */
import type { Resolved } from './service';

export type PackedPoints = {
  lat: Float32Array<ArrayBuffer>;
  lon: Float32Array<ArrayBuffer>;
  typeIndex: Uint8Array<ArrayBuffer>;
  types: string[];
};

/** Packs `set`'s rows; the j-th row goes to `place(j, row)` (absent: to j). */
export function packPoints(
  snapshot: Resolved['snapshot'],
  set: Pick<Resolved['set'], 'count' | 'rows'>,
  place?: (j: number, row: number) => number,
): PackedPoints {
  const n = set.count;
  const lat = new Float32Array(n);
  const lon = new Float32Array(n);
  const typeIndex = new Uint8Array(n);
  const slot = new Int16Array(Math.max(1, snapshot.types.size)).fill(-1);
  const types: string[] = [];
  for (let j = 0; j < n; j++) {
    const row = set.rows[j] as number;
    const t = snapshot.type[row] as number;
    let s = slot[t] as number;
    if (s < 0) {
      s = types.length < 255 ? types.length : 255;
      if (s === types.length) types.push(snapshot.types.values[t] as string);
      else types[255] = 'Other types';
      slot[t] = s;
    }
    const k = place ? place(j, row) : j;
    lat[k] = snapshot.lat[row] as number;
    lon[k] = snapshot.lon[row] as number;
    typeIndex[k] = s;
  }
  return { lat, lon, typeIndex, types };
}
