/**
 * The map's points as packed columns (typed arrays, not objects): what the renderer's clustering
 * worker indexes. Electron IPC clones typed arrays as they are; the web host encodes them with
 * src-shared/wire.
 */
import type { MapPoints } from '../../../src-shared/incidentQueries';
import { packPoints } from './packedPoints';
import type { Resolved } from './service';

export function mapPoints({ snapshot, set }: Resolved): MapPoints {
  const n = set.count;
  const cdid = new Float64Array(n);
  for (let j = 0; j < n; j++) cdid[j] = snapshot.cdid[set.rows[j] as number] as number;
  return { count: n, cdid, ...packPoints(snapshot, set) };
}
