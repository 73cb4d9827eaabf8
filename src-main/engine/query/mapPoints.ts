/**
 * The map's points as packed columns (typed arrays, not objects): what the renderer's clustering
 * worker indexes. Electron IPC clones typed arrays as they are; the web host encodes them with
 * src-shared/wire.
 */
import type { MapPoints } from '../../../src-shared/incidentQueries';
import type { Resolved } from './service';

export function mapPoints({ snapshot, set }: Resolved): MapPoints {
  const n = set.count;
  const cdid = new Float64Array(n);
  const lat = new Float32Array(n);
  const lon = new Float32Array(n);
  const typeIndex = new Uint8Array(n);
  // Only the types present get an index, in the order of first appearance (≤ 256 by construction
  // unless an archive holds more distinct types, which then share the last slot "Other types").
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
    cdid[j] = snapshot.cdid[row] as number;
    lat[j] = snapshot.lat[row] as number;
    lon[j] = snapshot.lon[row] as number;
    typeIndex[j] = s;
  }
  return { count: n, cdid, lat, lon, typeIndex, types };
}
