/**
 * A streaming RFC 4180 reader: text chunks in, records (arrays of fields) out, a chunk's worth at
 * a time. Fields are separated by commas, or by the separator the file uses (`separatorOf`: a tab,
 * a semicolon or a bar, as dispatch systems and European spreadsheets write them). Quoted fields may hold commas, doubled quotes and line breaks (also across chunk
 * boundaries); lines end in CRLF or LF; blank lines are skipped. Lines without a quote take a fast
 * path (one split). A quote inside an unquoted field is kept as text, as spreadsheets do. A quoted
 * field still open when the text ends is refused (UnclosedQuote): it would swallow every record
 * after it.
 */

/** The text ended inside a quoted field (thrown by `end()`: the record is the first one not yet given). */
export class UnclosedQuote extends Error {
  constructor() {
    super('A quoted field never closes.');
    this.name = 'UnclosedQuote';
  }
}

/**
 * A record's fields fitted to a header of `n` columns, or null when they do not fit: fields a row
 * leaves off at its end are blank (Excel writes no trailing commas for a row whose last cells are
 * empty), and blank fields past the header's end are dropped (a trailing comma); a filled field
 * past the end means the columns have slipped.
 */
export function fitted(fields: string[], n: number): string[] | null {
  if (fields.length < n) {
    const out = fields.slice();
    while (out.length < n) out.push('');
    return out;
  }
  for (let k = n; k < fields.length; k++) if ((fields[k] as string).trim() !== '') return null;
  return fields.slice(0, n);
}

/** The separators a file may use instead of commas. */
const SEPARATORS = ['\t', ';', '|'] as const;

/**
 * The field separator of a delimited text file, from its first line (its header): the one of
 * comma, tab, semicolon and bar it holds most often outside quotes — a comma unless another
 * outnumbers it.
 */
export function separatorOf(text: string): string {
  const line = (text.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '').replace(/"[^"]*"/g, '');
  const count = (c: string) => line.split(c).length - 1;
  let best = ',';
  let most = count(',');
  for (const c of SEPARATORS) {
    const n = count(c);
    if (n > most) [best, most] = [c, n];
  }
  return best;
}

export class CsvRecordReader {
  private rest = '';

  constructor(private readonly separator = ',') {}

  /** Records completed by `chunk`; an unfinished last record waits for the next chunk. */
  push(chunk: string): string[][] {
    const text = this.rest + chunk;
    const out: string[][] = [];
    const consumed = parse(text, out, false, this.separator);
    this.rest = text.slice(consumed);
    return out;
  }

  /** Characters held for a record not yet complete. */
  get pending(): number {
    return this.rest.length;
  }

  /** The last record, when the text did not end with a line break; throws UnclosedQuote. */
  end(): string[][] {
    const out: string[][] = [];
    parse(this.rest, out, true, this.separator);
    this.rest = '';
    return out;
  }
}

/**
 * Where the complete records of `text` (which begins at a record's start) end, and how many there
 * are (blank lines aside): for cutting a file into chunks of whole records that read alone exactly
 * as they would in the stream.
 */
export function completeRecords(
  text: string,
  max = Infinity,
  separator = ',',
): { end: number; count: number } {
  const counted: Counted = { count: 0, max };
  const end = parse(text, counted, false, separator);
  return { end, count: counted.count };
}

/** Counting instead of reading: up to `max` records. */
type Counted = { count: number; max: number };

/**
 * Parses complete records from `text` into `out` (or only counts them); returns how many
 * characters were consumed.
 */
function parse(text: string, out: string[][] | Counted, final: boolean, separator: string): number {
  const fields = Array.isArray(out) ? out : null;
  const n = text.length;
  let i = 0;
  let quote = -1; // the next quote at or after i (n + 1: none left)
  while (i < n) {
    if (!fields && (out as Counted).count >= (out as Counted).max) return i;
    let nl = text.indexOf('\n', i);
    if (nl < 0) {
      if (!final) return i;
      nl = n;
    }
    if (quote < i) {
      quote = text.indexOf('"', i);
      if (quote < 0) quote = n + 1;
    }
    if (quote > nl) {
      const end = nl > i && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (end > i) {
        if (fields) fields.push(text.slice(i, end).split(separator));
        else (out as Counted).count++;
      }
      i = nl + 1;
      continue;
    }
    const next = quoted(text, i, final, separator.charCodeAt(0));
    if (next === -1) return i; // the record continues in the next chunk
    if (fields) fields.push(next.fields);
    else (out as Counted).count++;
    i = next.end;
  }
  return n;
}

/** A record holding quotes, from `start`; -1 when the text ends inside it (and more may come). */
function quoted(
  text: string,
  start: number,
  final: boolean,
  sep: number,
): { fields: string[]; end: number } | -1 {
  const n = text.length;
  const fields: string[] = [];
  let i = start;
  for (;;) {
    let value = '';
    if (text.charCodeAt(i) === 34) {
      // A quoted field: up to the closing quote; "" is one quote.
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) {
          if (!final) return -1;
          throw new UnclosedQuote();
        }
        value += text.slice(from, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          from = q + 2;
          continue;
        }
        if (q + 1 >= n && !final) return -1; // cannot tell yet whether a quote follows
        i = q + 1;
        break;
      }
      // Anything between the closing quote and the next separator is kept, as spreadsheets do.
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === sep || c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) break;
        if (c === 13 && i + 1 >= n && !final) return -1;
        value += text[i];
        i++;
      }
    } else {
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === sep || c === 10 || (c === 13 && text.charCodeAt(j + 1) === 10)) break;
        if (c === 13 && j + 1 >= n && !final) return -1;
        j++;
      }
      value = text.slice(i, j);
      i = j;
    }
    fields.push(value);
    if (i >= n) {
      if (!final) return -1;
      return { fields, end: n };
    }
    const c = text.charCodeAt(i);
    if (c === sep) {
      i++;
      continue;
    }
    return { fields, end: c === 13 ? i + 2 : i + 1 };
  }
}
