/**
 * CSV (RFC 4180): UTF-8 with an optional byte-order mark (Excel wants it), a header row, CRLF line
 * ends, fields quoted when they hold a comma, quote, CR or LF, quotes doubled. Text cells that
 * begin with = + - @, a tab or a carriage return get a leading single quote so spreadsheets do not
 * run them as formulas; numbers (cdid, lat, lon) are written as numbers, never altered.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvField(value: unknown, numeric = false): string {
  if (value === null || value === undefined) return '';
  const text = numeric ? String(value) : neutralise(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
