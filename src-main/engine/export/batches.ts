/**
 * The rows of a filter, in cdid order, in batches: what every export writes. The set is the query
 * engine's own (QueryService.resolve, the same as countIncidents), so a file holds exactly the
 * incidents the count showed. Most columns come from the in-memory snapshot; the rest (date_raw,
 * link, description, first/last seen) are read from SQLite one batch at a time — a range scan
 * where the batch is dense in the table, a keyed lookup where it is sparse — with a turn of the
 * event loop between batches, so other calls (and a cancel) are answered while a big file is
 * written and memory stays flat.
 */
import type { Db } from '../store/database';
import { incidentsByCdid } from '../store/incidents/incidentRepo';
import type { IncidentTuple } from '../store/incidents/incidentRow';
import type { Resolved } from '../query/service';
import type { Snapshot } from '../query/snapshot';
import { yieldToEventLoop } from '../eventLoop';
import { attributesReader } from './attributesOf';
import { matchByCdid } from './matchByCdid';

/** The columns the snapshot lacks. */
const COLUMNS = ['cdid', 'date_raw', 'link', 'description', 'first_seen', 'last_seen', 'subtype'] as const;
/** [cdid, date_raw, link, description, first_seen, last_seen, subtype]. */
export type StoredColumns = IncidentTuple<typeof COLUMNS>;

export type Batch = {
  snapshot: Snapshot;
  /** Snapshot rows, ascending cdid; `stored[k]` belongs to `rows[k]`. */
  rows: Uint32Array;
  stored: StoredColumns[];
  /** The kept columns of a mapped import's rows in the batch, by cdid (attributesOf.ts). */
  attributes: Map<number, string>;
  /** Matching rows the store no longer held when read (deleted since the filter ran). */
  vanished: number;
};

/** The filter's rows in ascending cdid order (rows appended since the snapshot load are merged in). */
export function rowsInCdidOrder({ snapshot, set }: Resolved): Uint32Array {
  const rows = set.rows;
  const n = rows.length;
  if (n === 0 || (rows[n - 1] as number) < snapshot.sortedRows) return rows;
  const cdid = snapshot.cdid;
  return Uint32Array.from(rows).sort((a, b) => (cdid[a] as number) - (cdid[b] as number));
}

/**
 * Whether a batch (snapshot rows, ascending cdid) is most of the table between its first and last
 * cdid, so that a range scan reads little else: rows [0, sortedRows) are the table in cdid order.
 */
export function isDenseBatch(snapshot: Snapshot, rows: Uint32Array): boolean {
  const first = rows[0] as number;
  const last = rows[rows.length - 1] as number;
  return last < snapshot.sortedRows && last - first + 1 <= 2 * rows.length;
}

/** Reads one batch (snapshot rows, ascending cdid) of the stored columns, joined to its rows. */
export function batchReader(db: Db, snapshot: Snapshot): (rows: Uint32Array) => Batch {
  const stored = incidentsByCdid(db, COLUMNS);
  const attributesOf = attributesReader(db);
  const cdid = snapshot.cdid;
  return (rows) => {
    const first = rows[0] as number;
    const last = rows[rows.length - 1] as number;
    const dense = isDenseBatch(snapshot, rows);
    const ids = Float64Array.from(rows, (r) => cdid[r] as number);
    const found = dense
      ? stored.between(cdid[first] as number, cdid[last] as number)
      : stored.among(Array.from(ids));
    return join(snapshot, rows, found, attributesOf(ids, dense));
  };
}

export async function* exportBatches(
  db: Db,
  resolved: Resolved,
  options: { batchRows?: number; pause?: () => Promise<void> } = {},
): AsyncGenerator<Batch> {
  const size = options.batchRows ?? 2000;
  const pause = options.pause ?? yieldToEventLoop;
  const order = rowsInCdidOrder(resolved);
  const read = batchReader(db, resolved.snapshot);
  for (let start = 0; start < order.length; start += size) {
    yield read(order.subarray(start, Math.min(order.length, start + size)));
    await pause();
  }
}

/** Pairs each wanted row with its stored columns (both ascending by cdid); extra stored rows are skipped. */
function join(
  snapshot: Snapshot,
  wanted: Uint32Array,
  found: StoredColumns[],
  attributes: Map<number, string>,
): Batch {
  const rows = new Uint32Array(wanted.length);
  const stored: StoredColumns[] = [];
  const ids = Float64Array.from(wanted, (row) => snapshot.cdid[row] as number);
  matchByCdid(ids, found, (k, hit) => {
    rows[stored.length] = wanted[k] as number;
    stored.push(hit);
  });
  return {
    snapshot,
    rows: rows.subarray(0, stored.length),
    stored,
    attributes,
    vanished: wanted.length - stored.length,
  };
}
