/**
 * An import file as a stream of records (plain objects with canonical field names), a chunk's worth
 * at a time: CSV rows keyed by the header, JSON and NDJSON objects, GeoJSON features flattened
 * (properties, plus lat/lon from a Point geometry). A record that cannot be read carries a problem.
 * Read asynchronously, so the engine answers other calls while a preview reads.
 */
import { createReadStream } from 'node:fs';
import { headerOf, mappedSpelling } from './columns';
import { CsvRecordReader, fitted, UnclosedQuote } from './csvRecords';
import type { Detected } from './detect';
import { FileProblem, rowWords } from './fileProblem';
import { JsonRecordReader, NdjsonRecordReader } from './jsonRecords';
import { canonicalKey } from './normalize';
import { InvalidUtf8, textChunks } from './utf8Text';

export type RawRecord = { row: number; value: Record<string, unknown> } | { row: number; problem: string };

/**
 * Bytes read at a time. A file too small for the check threads (and every JSON file) is read and
 * checked on the engine's thread, each piece's rows in one stretch: 1 MB of a mapped CSV took
 * 100–150 ms of its CPU while the map's counts waited (issue 31); 128 KB takes ~15–20 ms.
 */
const CHUNK = 128 * 1024;
/** A CSV record longer than this is refused (an unclosed quote reading the rest of a huge file). */
export const MAX_RECORD_CHARS = 64 * 1024 * 1024;
const NO_RECORDS =
  'No records found: expected an array, or an object with "features", "crimes", "incidents" or "records".';

/** The file-level problem of a quoted field that never closes, opened in `row` (0: the header). */
export const unclosedQuote = (row: number): FileProblem =>
  new FileProblem(
    `${capitalised(rowWords(row))} opens a quoted field (") that never closes, so every line after it would be ` +
      'read into that one field. Close the quote, or remove the stray one, and import the file again.',
  );

/** The file-level problem of bytes that are not UTF-8, at `offset` in `row` (0: the header). */
export const notUtf8 = (offset: number, row: number): FileProblem =>
  new FileProblem(
    `The file is not UTF-8 text: byte ${offset} (in ${rowWords(row)}) cannot be read. Save the file as ` +
      'UTF-8 (in a spreadsheet: "CSV UTF-8") and import it again.',
  );

/** The file-level problem of a CSV record longer than MAX_RECORD_CHARS, from `row`. */
export const recordTooLong = (row: number): FileProblem =>
  new FileProblem(
    `${capitalised(rowWords(row))} runs on for more than ${MAX_RECORD_CHARS / 1024 / 1024} MB: most likely a ` +
      'quoted field (") that never closes. Close the quote and import the file again.',
  );

/**
 * A JSON record longer than this is refused: an incident is a few hundred bytes, and one record of
 * 60 MB of empty objects froze the engine for 15 s parsing it (a record of a gigabyte would not fit
 * in a string at all). 4 MB still holds a Feature with a polygon of 100,000 corners.
 */
export const MAX_JSON_RECORD_CHARS = 4 * 1024 * 1024;

/** The file-level problem of a JSON record longer than MAX_JSON_RECORD_CHARS, from `row`. */
export const jsonRecordTooLong = (row: number): FileProblem =>
  new FileProblem(
    `Record ${row} runs on for more than ${MAX_JSON_RECORD_CHARS / 1024 / 1024} MB of JSON; an incident record is ` +
      'a few hundred bytes. Check that the file is a list of incidents, and import it again.',
  );

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Text chunks → records, for one file. */
export class RecordDecoder {
  private row = 0;
  private first = true;
  private header: string[] | null = null;
  private readonly csv: CsvRecordReader;
  /** A mapped JSON file's field names → the mapping's spelling (its values then read as text). */
  private readonly spelling: ((name: string) => string) | null;
  private readonly json = new JsonRecordReader();
  private readonly ndjson = new NdjsonRecordReader();

  /**
   * `continuing`: a CSV chunk cut from the middle of a file at a record's start (the parallel
   * preview): the header read from the file's start, and the number of the chunk's first row.
   */
  constructor(
    private readonly detected: Detected,
    continuing?: { header: string[]; firstRow: number },
  ) {
    this.csv = new CsvRecordReader(detected.separator);
    this.spelling = detected.mapping ? mappedSpelling(detected.mapping) : null;
    if (continuing) {
      this.header = continuing.header;
      this.row = continuing.firstRow - 1;
      this.first = false;
    }
  }

  /** The number of the record the text read so far is in (0: a CSV file's header). */
  get currentRow(): number {
    return this.detected.reader === 'csv' && !this.header ? 0 : this.row + 1;
  }

  push(chunk: string): RawRecord[] {
    if (this.first) {
      chunk = chunk.replace(/^\uFEFF/, '');
      this.first = false;
    }
    const { reader } = this.detected;
    if (reader === 'csv') {
      const records = this.fromCsv(this.csv.push(chunk));
      if (this.csv.pending > MAX_RECORD_CHARS) throw recordTooLong(this.currentRow);
      return records;
    }
    const split = reader === 'ndjson' ? this.ndjson : this.json;
    const records = this.fromJson(split.push(chunk));
    if (split.pending > MAX_JSON_RECORD_CHARS) throw jsonRecordTooLong(this.row + 1);
    return records;
  }

  /** The records the end of the text completes; throws FileProblem when the file is cut short. */
  end(): RawRecord[] {
    const { reader } = this.detected;
    if (reader === 'csv') {
      try {
        return this.fromCsv(this.csv.end());
      } catch (error) {
        if (error instanceof UnclosedQuote) throw unclosedQuote(this.currentRow);
        throw error;
      }
    }
    if (reader === 'ndjson') return this.fromJson(this.ndjson.end());
    const json = this.json;
    if (!json.foundRecords) throw new FileProblem(NO_RECORDS);
    if (!json.closed)
      throw new FileProblem(
        `The file ends before its JSON does: it looks cut short${this.row > 0 ? ` after record ${this.row}` : ''}. ` +
          'Nothing is read from a file that may be missing records: copy or export it again.',
      );
    if (json.trailingText)
      throw new FileProblem(
        'The file has more text after its JSON document ends (two documents, or JSON wrapped in something else). ' +
          'Blotter reads one JSON document per file.',
      );
    return [];
  }

  private fromCsv(records: string[][]): RawRecord[] {
    const out: RawRecord[] = [];
    for (const fields of records) {
      const header = this.header;
      if (!header) {
        this.header = headerOf(fields, this.detected.mapping, 'columns');
        continue;
      }
      const row = ++this.row;
      // Another system's file may leave a row's empty last cells off (Excel does); Blotter's never does.
      const cells =
        fields.length === header.length
          ? fields
          : this.detected.mapping
            ? fitted(fields, header.length)
            : null;
      if (cells === null) {
        out.push({
          row,
          problem: `This row has ${fields.length} fields; the header has ${header.length}.`,
        });
        continue;
      }
      const value: Record<string, unknown> = {};
      for (let k = 0; k < header.length; k++) value[header[k] as string] = cells[k];
      out.push({ row, value });
    }
    return out;
  }

  private fromJson(texts: string[]): RawRecord[] {
    const out = texts.map((text) => jsonRecord(++this.row, text, this.spelling));
    const first = this.row === out.length ? out[0] : undefined;
    if (first && 'value' in first) {
      headerOf(Object.keys(first.value), this.detected.mapping, 'fields');
    }
    return out;
  }
}

export async function* readRecords(
  file: string,
  detected: Detected,
  onBytes: (bytes: number) => void = () => undefined,
): AsyncGenerator<RawRecord[]> {
  const stream = createReadStream(file, { highWaterMark: CHUNK });
  const decoder = new RecordDecoder(detected);
  const utf8 = textChunks(detected.encoding);
  const text = (bytes: Buffer | null): string => {
    try {
      return bytes ? utf8.decode(bytes) : utf8.end();
    } catch (error) {
      if (!(error instanceof InvalidUtf8)) throw error;
      decoder.push(error.before); // the records before the bad byte: which row it is in
      throw notUtf8(error.offset, decoder.currentRow);
    }
  };
  try {
    for await (const chunk of stream) {
      onBytes(stream.bytesRead);
      yield decoder.push(text(chunk as Buffer));
    }
    const rest = text(null);
    yield [...decoder.push(rest), ...decoder.end()];
  } finally {
    stream.destroy();
  }
}

/**
 * A JSON record (a GeoJSON Feature flattened: its properties, and lat/lon from a Point geometry).
 * Read through a mapping (`spelling`), its fields keep their own names, spelled as the mapping
 * spells them, and their values are text as a CSV cell is (numbers and true/false as written,
 * null as blank); a Feature always has `lat` and `lon` (blank without a Point geometry), so a
 * mapping names the geometry's position as the columns lat and lon.
 */
function jsonRecord(row: number, text: string, spelling: ((name: string) => string) | null): RawRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { row, problem: 'This record is not valid JSON.' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { row, problem: 'This record is not a JSON object.' };
  let source = parsed as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  const isFeature = source.type === 'Feature';
  if (isFeature) {
    const geometry = source.geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
    const props = source.properties;
    source = props && typeof props === 'object' ? (props as Record<string, unknown>) : {};
    if (geometry?.type === 'Point' && Array.isArray(geometry.coordinates)) {
      const [lon, lat] = geometry.coordinates as unknown[];
      value.lat = lat;
      value.lon = lon;
    }
  }
  if (spelling) return { row, value: mappedRecord(source, value, isFeature, spelling) };
  const positioned = 'lat' in value;
  for (const [key, v] of Object.entries(source)) {
    const k = canonicalKey(key);
    // "__proto__" would set the record's prototype: its fields read as the record's own.
    if (k === '__proto__') continue;
    // A Point geometry's position wins over lat/lon properties.
    if (positioned && (k === 'lat' || k === 'lon')) continue;
    // Two fields giving one (cdid and id, lat and LAT): the later silently won.
    if (Object.hasOwn(value, k))
      return {
        row,
        problem: `This record's fields give ${k} twice (${JSON.stringify(key.slice(0, 40))} and another); which one to read would be a guess.`,
      };
    value[k] = v;
  }
  return { row, value };
}

function mappedRecord(
  properties: Record<string, unknown>,
  position: Record<string, unknown>,
  isFeature: boolean,
  spelling: (name: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(properties))
    if (key !== '__proto__') out[spelling(key)] = cellText(v);
  if (isFeature) {
    // The geometry's position wins over lat/lon properties, as without a mapping.
    out[spelling('lat')] = cellText(position.lat);
    out[spelling('lon')] = cellText(position.lon);
  }
  return out;
}

const cellText = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
