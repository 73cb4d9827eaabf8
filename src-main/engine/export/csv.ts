/**
 * CSV (RFC 4180): UTF-8 with an optional byte-order mark (Excel wants it), a header row, CRLF line
 * ends, fields quoted when they hold a comma, quote, CR or LF, quotes doubled. Text cells that
 * begin with = + - @, a tab or a carriage return get a leading single quote so spreadsheets do not
 * run them as formulas; numbers (cdid, lat, lon) are written as numbers, never altered.
 */
import { EXPORT_COLUMNS, type ExportRow } from './rows';

const NUMERIC = new Set<string>(['cdid', 'lat', 'lon']);
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvField(value: unknown, numeric = false): string {
  if (value === null || value === undefined) return '';
  const text = numeric ? String(value) : neutralise(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(row: ExportRow): string {
  return EXPORT_COLUMNS.map((c) => csvField(row[c], NUMERIC.has(c))).join(',') + '\r\n';
}

/** The whole file as a stream of chunks (a few hundred rows each). */
export function* csvChunks(rows: Iterable<ExportRow>, opts: { bom?: boolean } = {}): Generator<string> {
  let buf = (opts.bom ? '\uFEFF' : '') + EXPORT_COLUMNS.join(',') + '\r\n';
  let n = 0;
  for (const row of rows) {
    buf += csvLine(row);
    if (++n % 500 === 0) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}
