/**
 * Reads incidents from the store into a Snapshot: the whole table in cdid-keyed chunks (yielding
 * to the worker's event loop between chunks, so other calls are answered while a million rows
 * load), or a given set of cdids after a sync transaction.
 *
 * The cost is per row and per value crossing into JavaScript, so SQLite does the arithmetic:
 * the local day, minute and removed flag come packed in one integer, and types and zones the
 * snapshot already knows come as small integers (a CASE over the known values), not strings.
 */
import { yieldToEventLoop } from '../eventLoop';
import type { Db } from '../store/database';
import type { Dictionary } from './dictionary';
import { Snapshot, type RawRow } from './snapshot';

const PACKED = `(CAST(julianday(local_day) - 2440587.5 AS INTEGER) * 1440
  + CAST(substr(occurred_local, 12, 2) AS INTEGER) * 60 + CAST(substr(occurred_local, 15, 2) AS INTEGER)) * 2
  + (removed_at IS NOT NULL)`;

const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** `column` as (id + 1) of a known value, else the value itself. */
function coded(column: string, dict: Dictionary): string {
  const known = dict.values.map((v, id) => [v, id] as const).filter(([v]) => !v.includes('\0'));
  if (known.length === 0) return column;
  return `CASE ${column} ${known.map(([v, id]) => `WHEN ${literal(v)} THEN ${id + 1}`).join(' ')} ELSE ${column} END`;
}

function columns(snapshot: Snapshot): string {
  return `cdid, lat, lon, occurred_utc, ${PACKED}, ${coded('type', snapshot.types)}, ${coded('timezone', snapshot.zones)}, address`;
}

export type LoadOptions = {
  /** Rows per chunk; each chunk is one synchronous read (default 10,000 ≈ 10–20 ms; 20,000 took 40–70 ms on a busy machine). */
  chunkRows?: number;
  /** Called between chunks; by default yields to the event loop. */
  pause?: () => Promise<void>;
  /** Called after each chunk: rows read so far of the table's count at the start. */
  progress?: (done: number, total: number) => void;
};

export async function loadSnapshot(db: Db, options: LoadOptions = {}): Promise<Snapshot> {
  const chunkRows = options.chunkRows ?? 10_000;
  const pause = options.pause ?? yieldToEventLoop;
  const rows = (db.prepare('SELECT count(*) AS n FROM incidents').get() as { n: number }).n;
  const snapshot = new Snapshot(Math.ceil(rows * 1.02) + 1024);
  let known = -1;
  let chunk = db.prepare('SELECT 1');
  let last = -Number.MAX_VALUE;
  for (;;) {
    if (snapshot.types.size + snapshot.zones.size !== known) {
      known = snapshot.types.size + snapshot.zones.size;
      chunk = db
        .prepare(`SELECT ${columns(snapshot)} FROM incidents WHERE cdid > ? ORDER BY cdid LIMIT ?`)
        .raw(true);
    }
    const page = chunk.all(last, chunkRows) as RawRow[];
    for (const row of page) snapshot.upsert(row);
    options.progress?.(snapshot.size, Math.max(rows, snapshot.size));
    if (page.length < chunkRows) break;
    last = (page[page.length - 1] as RawRow)[0];
    await pause();
  }
  return snapshot;
}

/** Re-reads the given incidents into `snapshot`; those no longer in the store become GONE. */
export function applyChanges(db: Db, snapshot: Snapshot, cdids: readonly number[]): number {
  const select = db
    .prepare(`SELECT ${columns(snapshot)} FROM incidents WHERE cdid IN (SELECT value FROM json_each(?))`)
    .raw(true);
  let applied = 0;
  for (let start = 0; start < cdids.length; start += 5_000) {
    const part = cdids.slice(start, start + 5_000);
    const found = new Set<number>();
    for (const row of select.all(JSON.stringify(part)) as RawRow[]) {
      snapshot.upsert(row);
      found.add(row[0]);
      applied++;
    }
    for (const cdid of part) if (!found.has(cdid)) snapshot.markGone(cdid);
  }
  if (cdids.length > 0) snapshot.touch();
  return applied;
}
