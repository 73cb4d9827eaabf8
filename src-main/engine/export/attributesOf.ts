/**
 * The `attributes` export column: the columns a mapped import kept for its incidents
 * (`incident_imports.attributes`, JSON object text), read one batch of cdids at a time — a range
 * where the batch is dense in the table, its own cdids where it is sparse. An archive with no kept
 * columns (every API-only archive) is asked once and never again.
 */
import type { Db } from '../store/database';

export type AttributesOf = (cdids: ArrayLike<number>, dense: boolean) => Map<number, string>;

const NONE = new Map<number, string>();

export function attributesReader(db: Pick<Db, 'prepare'>): AttributesOf {
  const any = db.prepare('SELECT 1 FROM incident_imports WHERE attributes IS NOT NULL LIMIT 1').get();
  if (any === undefined) return () => NONE;
  const between = db
    .prepare(
      'SELECT cdid, attributes FROM incident_imports WHERE cdid BETWEEN ? AND ? AND attributes IS NOT NULL',
    )
    .raw();
  const among = db
    .prepare(
      `SELECT cdid, attributes FROM incident_imports
       WHERE cdid IN (SELECT value FROM json_each(?)) AND attributes IS NOT NULL`,
    )
    .raw();
  return (cdids, dense) => {
    const n = cdids.length;
    if (n === 0) return NONE;
    const rows = (
      dense ? between.all(cdids[0], cdids[n - 1]) : among.all(JSON.stringify(Array.from(cdids)))
    ) as [number, string][];
    return new Map(rows);
  };
}
