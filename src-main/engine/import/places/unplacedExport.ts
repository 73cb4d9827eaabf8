/**
 * The unplaced rows as lines of the CSV export (its columns, `EXPORT_COLUMN_NAMES`), lat and lon
 * empty: an export asked to include them (`includeUnplaced`) appends them after the incidents. They
 * have no place, so no filter by place or time applies to them: all are written.
 */
import type Database from 'better-sqlite3';
import { csvField } from '../../files/csv';

type Row = {
  cdid: number;
  type: string;
  occurred_local: string;
  timezone: string;
  occurred_utc: number;
  address: string;
  description: string | null;
  attributes: string | null;
  imported_at: number;
};

export function unplacedCsv(db: Database.Database): { text: string; rows: number } | null {
  const rows = db
    .prepare(
      `SELECT cdid, type, occurred_local, timezone, occurred_utc, address, description, attributes, imported_at
       FROM unplaced_incidents ORDER BY cdid`,
    )
    .all() as Row[];
  if (rows.length === 0) return null;
  let text = '';
  for (const r of rows) {
    const seen = new Date(r.imported_at).toISOString();
    text +=
      `${r.cdid},${csvField(r.type)},${r.occurred_local},${r.timezone},${new Date(r.occurred_utc).toISOString()},` +
      `,${csvField(r.address)},,,,${csvField(r.description)},${seen},${seen},false,${csvField(r.attributes)}\r\n`;
  }
  return { text, rows: rows.length };
}
