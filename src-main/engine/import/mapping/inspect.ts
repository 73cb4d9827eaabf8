/**
 * What the Import view's mapping editor shows of a CSV file before any preview: its columns, the
 * first rows, each column's distinct values (most frequent first, from the first records — the
 * offence codes the value map is made from) and a proposed mapping (propose.ts), or the mapping
 * saved for the same header shape. Reads at most the first INSPECT_BYTES of the file.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ColumnMapping } from '../../../../src-shared/importMapping';
import type { ColumnValue, MappingZone } from '../../../../src-shared/importMappingCalls';
import { checkColumnCount } from '../columns';
import { CsvRecordReader, fitted, separatorOf, UnclosedQuote } from '../csvRecords';
import { FileProblem } from '../fileProblem';
import { decodeWindows1252 } from '../../files/windows1252';
import { namespaceOf } from './apply';
import { idCandidates, proposeMapping, type Proposal } from './propose';
import { zones } from '../../geo/projection';
import { eachDistinct } from '../distinct';
import { yieldToEventLoop } from '../../eventLoop';

/** Bytes read from the file's start for the columns' values. */
export const INSPECT_BYTES = 4 * 1024 * 1024;
/** Records read at most. */
export const INSPECT_ROWS = 20_000;
/** Distinct values listed per column. */
export const MAX_VALUES = 200;
const SAMPLE_ROWS = 8;
/** Rows the proposal judges the columns' content by. */
const PROPOSAL_ROWS = 200;
/** Distinct values tracked per column before it is taken as free text (an id, an address). */
const TRACKED = 5_000;

export type Inspected = {
  columns: string[];
  sample: Record<string, string>[];
  /** The first PROPOSAL_ROWS rows (the proposal's content checks). */
  head: Record<string, string>[];
  rowsRead: number;
  values: Record<string, { top: { value: string; count: number }[]; more: boolean }>;
  /** The separator the file's fields are split by. */
  separator: string;
};

/**
 * Bytes of the whole file read at a time for the id column's check: each piece is split and hashed
 * in one stretch of the engine's thread (1 MB: 25–35 ms of CPU, 0.1–0.5 s at load; 256 KB: ~7 ms).
 */
const UNIQUE_PIECE_BYTES = 256 * 1024;
/** Text handed to the CSV reader at a time: the engine's loop turns between pieces (issue 31). */
const PIECE_CHARS = 256 * 1024;
/** One collator for the values' order: String#localeCompare builds one per call (5,000 values a column). */
const collator = new Intl.Collator();

/**
 * The header, the first rows and the columns' values of a CSV file. Read on the engine's thread in
 * pieces of PIECE_CHARS, yielding between them, and only until INSPECT_ROWS records are in: 4 MB
 * of text read, split and counted at once held the thread 0.35–0.5 s, as long as a count sorted
 * with localeCompare.
 */
export async function inspectCsv(file: string, encoding?: 'windows-1252'): Promise<Inspected> {
  const text = await headText(file, encoding);
  const separator = separatorOf(text.body);
  const reader = new CsvRecordReader(separator);
  let header: string[] | undefined;
  let columns: string[] = [];
  let counts: Map<string, number>[] = [];
  const head: Record<string, string>[] = [];
  let rowsRead = 0;
  const take = (records: string[][]): void => {
    for (const row of records) {
      if (!header) {
        header = row;
        if (header.every((c) => c.trim() === ''))
          throw new FileProblem('The file is empty: there is nothing to import.');
        checkColumnCount(header.length, 'columns');
        columns = header.map((c) => c.trim());
        counts = columns.map(() => new Map<string, number>());
        continue;
      }
      if (rowsRead >= INSPECT_ROWS) return;
      const fields = fitted(row, columns.length);
      if (fields === null) continue;
      rowsRead++;
      if (head.length < PROPOSAL_ROWS)
        head.push(Object.fromEntries(columns.map((c, k) => [c, fields[k] ?? ''])));
      for (let k = 0; k < columns.length; k++) {
        const v = (fields[k] ?? '').trim();
        const m = counts[k] as Map<string, number>;
        const n = m.get(v);
        if (n !== undefined) m.set(v, n + 1);
        else if (m.size < TRACKED) m.set(v, 1);
      }
    }
  };
  try {
    for (let at = 0; at < text.body.length && rowsRead < INSPECT_ROWS; at += PIECE_CHARS) {
      if (at > 0) await yieldToEventLoop();
      take(reader.push(text.body.slice(at, at + PIECE_CHARS)));
    }
    // The last record may be cut by the byte limit: it is dropped unless the file ended.
    if (text.whole && rowsRead < INSPECT_ROWS) take(reader.end());
  } catch (error) {
    // A quote that never closes: the records before it are inspected; the preview names the row.
    if (!(error instanceof UnclosedQuote)) throw error;
  }
  if (!header || header.every((c) => c.trim() === ''))
    throw new FileProblem('The file is empty: there is nothing to import.');
  const values: Inspected['values'] = {};
  for (let k = 0; k < columns.length; k++) {
    if (k > 0) await yieldToEventLoop();
    const c = columns[k] as string;
    const all = [...(counts[k] as Map<string, number>)].filter(([v]) => v !== '');
    all.sort((a, b) => b[1] - a[1] || collator.compare(a[0], b[0]));
    const top: ColumnValue[] = all.slice(0, MAX_VALUES).map(([value, count]) => ({ value, count }));
    values[c] = { top, more: all.length > MAX_VALUES || (counts[k] as Map<string, number>).size >= TRACKED };
  }
  return { columns, sample: head.slice(0, SAMPLE_ROWS), head, rowsRead, values, separator };
}

/**
 * A proposal for the inspected columns, by their names and the first rows' values (propose.ts);
 * an id column only when its values are filled and distinct over the whole file, read for it here.
 */
export async function proposalFor(
  inspected: Inspected,
  /** The file, read whole for the id; null: judged by the first rows (a saved mapping is used instead). */
  file: string | null,
  encoding?: 'windows-1252',
  /** The file's own name (a file of shootings with no type column gets that type). */
  fileName?: string,
): Promise<Proposal> {
  const candidates = idCandidates(inspected.columns);
  const unique =
    file === null || candidates.length === 0
      ? undefined
      : await uniqueColumns(file, encoding, inspected.separator, inspected.columns, candidates);
  return proposeMapping(inspected.columns, inspected.head, unique, {
    stats: inspected.values,
    ...(fileName !== undefined ? { fileName } : {}),
  });
}

/**
 * The `candidates` whose values are filled and distinct on every record of the file, read whole
 * (streamed, UNIQUE_PIECE_BYTES at a time). Values are compared by a 53-bit hash (apply.ts's): two distinct
 * values meeting can only make a unique column look repeated, never the reverse. A file that
 * cannot be read to its end (an unclosed quote: the preview names it) offers no id column.
 */
export async function uniqueColumns(
  file: string,
  encoding: 'windows-1252' | undefined,
  separator: string,
  columns: readonly string[],
  candidates: readonly string[],
): Promise<Set<string>> {
  const at = candidates.map((c) => columns.indexOf(c));
  const hash = namespaceOf('');
  let size = 0;
  let hashes = at.map(() => new Float64Array(1024));
  const blank = at.map(() => false);
  const reader = new CsvRecordReader(separator);
  const decoder = new TextDecoder('utf-8');
  let header = true;
  const take = (records: string[][]) => {
    for (const record of records) {
      if (header) {
        header = false;
        continue;
      }
      const fields = fitted(record, columns.length);
      if (fields === null) continue; // refused by the preview, row by row
      if (size === (hashes[0] as Float64Array).length)
        hashes = hashes.map((h) => {
          const bigger = new Float64Array(h.length * 2);
          bigger.set(h);
          return bigger;
        });
      at.forEach((k, j) => {
        const v = (fields[k] ?? '').trim();
        if (v === '') blank[j] = true;
        else (hashes[j] as Float64Array)[size] = hash(v);
      });
      size++;
    }
  };
  try {
    let first = true;
    for await (const chunk of createReadStream(file, {
      highWaterMark: UNIQUE_PIECE_BYTES,
    }) as AsyncIterable<Buffer>) {
      let text =
        encoding === 'windows-1252' ? decodeWindows1252(chunk) : decoder.decode(chunk, { stream: true });
      if (first) text = text.replace(/^\uFEFF/, '');
      first = false;
      take(reader.push(text));
    }
    if (encoding !== 'windows-1252') take(reader.push(decoder.decode()));
    take(reader.end());
  } catch {
    return new Set();
  }
  // The full columns judged (sorted) on the import's helper thread when long (../distinct.ts).
  const judged = candidates.map((_, j) => !blank[j] && size > 0);
  const distinct = await eachDistinct(hashes.filter((_, j) => judged[j]).map((h) => h.subarray(0, size)));
  const unique = new Set<string>();
  let next = 0;
  candidates.forEach((c, j) => {
    if (judged[j] && distinct[next++]) unique.add(c);
  });
  return unique;
}

/** Every bundled zone, those fitting the file first (in the proposal's order). */
export function zoneList(fitting: readonly { epsg: number }[]): MappingZone[] {
  const fits = new Set(fitting.map((z) => z.epsg));
  const list = zones.map((z) => ({ epsg: z.epsg, name: z.name, unit: z.unit, fits: fits.has(z.epsg) }));
  const order = new Map(fitting.map((z, k) => [z.epsg, k]));
  return list.sort(
    (a, b) =>
      Number(b.fits) - Number(a.fits) ||
      (order.get(a.epsg) ?? 0) - (order.get(b.epsg) ?? 0) ||
      a.epsg - b.epsg,
  );
}

async function headText(file: string, encoding?: 'windows-1252'): Promise<{ body: string; whole: boolean }> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(INSPECT_BYTES);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const whole = bytesRead < buf.length;
    // A character cut at the limit is dropped with the record it is in.
    const bytes = buf.subarray(0, bytesRead);
    const body = (
      encoding === 'windows-1252' ? decodeWindows1252(bytes) : new TextDecoder('utf-8').decode(bytes)
    ).replace(/^\uFEFF/, '');
    return { body, whole };
  } finally {
    await handle.close();
  }
}

/** A saved mapping with its column names as this file spells them (a header shape ignores case and spaces). */
export function respelled(mapping: ColumnMapping, columns: readonly string[]): ColumnMapping {
  const spelled = new Map(columns.map((c) => [c.trim().toLowerCase(), c]));
  const as = (c: string): string => spelled.get(c.trim().toLowerCase()) ?? c;
  const opt = (c: string | undefined) => (c === undefined ? {} : { v: as(c) });
  const loc = mapping.location;
  const out: ColumnMapping = {
    ...mapping,
    date: as(mapping.date),
    location:
      loc.kind === 'latlon'
        ? { ...loc, lat: as(loc.lat), lon: as(loc.lon) }
        : loc.kind === 'xy'
          ? { ...loc, x: as(loc.x), y: as(loc.y) }
          : loc,
    keep: mapping.keep.map(as),
  };
  for (const k of ['id', 'type', 'address', 'block', 'time', 'description'] as const) {
    const v = opt(mapping[k]);
    if ('v' in v) out[k] = v.v;
  }
  return out;
}
