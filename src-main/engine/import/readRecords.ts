/**
 * An import file as a stream of records (plain objects with canonical field names), a chunk's worth
 * at a time: CSV rows keyed by the header, JSON and NDJSON objects, GeoJSON features flattened
 * (properties, plus lat/lon from a Point geometry). A record that cannot be read carries a problem.
 * Read asynchronously, so the engine answers other calls while a preview reads.
 */
import { createReadStream } from 'node:fs';
import { CsvRecordReader } from './csvRecords';
import type { Detected } from './detect';
import { JsonRecordReader, NdjsonRecordReader } from './jsonRecords';
import { canonicalKey } from './normalize';

export type RawRecord = { row: number; value: Record<string, unknown> } | { row: number; problem: string };

const CHUNK = 1 << 20;
const NO_RECORDS =
  'No records found: expected an array, or an object with "features", "crimes", "incidents" or "records".';

/** Text chunks → records, for one file. */
export class RecordDecoder {
  private row = 0;
  private first = true;
  private header: string[] | null = null;
  private readonly csv = new CsvRecordReader();
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
    if (continuing) {
      this.header = continuing.header;
      this.row = continuing.firstRow - 1;
      this.first = false;
    }
  }

  push(chunk: string): RawRecord[] {
    if (this.first) {
      chunk = chunk.replace(/^\uFEFF/, '');
      this.first = false;
    }
    const { reader } = this.detected;
    if (reader === 'csv') return this.fromCsv(this.csv.push(chunk));
    return this.fromJson(reader === 'ndjson' ? this.ndjson.push(chunk) : this.json.push(chunk));
  }

  end(): RawRecord[] {
    const { reader } = this.detected;
    if (reader === 'csv') return this.fromCsv(this.csv.end());
    if (reader === 'ndjson') return this.fromJson(this.ndjson.end());
    return this.json.foundRecords ? [] : [{ row: 0, problem: NO_RECORDS }];
  }

  private fromCsv(records: string[][]): RawRecord[] {
    const out: RawRecord[] = [];
    for (const fields of records) {
      const header = this.header;
      if (!header) {
        this.header = fields.map(canonicalKey);
        continue;
      }
      const row = ++this.row;
      if (fields.length !== header.length) {
        out.push({ row, problem: `This row has ${fields.length} fields; the header has ${header.length}.` });
        continue;
      }
      const value: Record<string, unknown> = {};
      for (let k = 0; k < header.length; k++) value[header[k] as string] = fields[k];
      out.push({ row, value });
    }
    return out;
  }

  private fromJson(texts: string[]): RawRecord[] {
    return texts.map((text) => jsonRecord(++this.row, text));
  }
}

export async function* readRecords(
  file: string,
  detected: Detected,
  onBytes: (bytes: number) => void = () => undefined,
): AsyncGenerator<RawRecord[]> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK });
  const decoder = new RecordDecoder(detected);
  try {
    for await (const chunk of stream) {
      onBytes(stream.bytesRead);
      yield decoder.push(chunk as string);
    }
    yield decoder.end();
  } finally {
    stream.destroy();
  }
}

function jsonRecord(row: number, text: string): RawRecord {
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
  if (source.type === 'Feature') {
    const geometry = source.geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
    const props = source.properties;
    source = props && typeof props === 'object' ? (props as Record<string, unknown>) : {};
    if (geometry?.type === 'Point' && Array.isArray(geometry.coordinates)) {
      const [lon, lat] = geometry.coordinates as unknown[];
      value.lat = lat;
      value.lon = lon;
    }
  }
  for (const [key, v] of Object.entries(source)) {
    const k = canonicalKey(key);
    // A Point geometry's position wins over lat/lon properties.
    if (!(k in value) || (k !== 'lat' && k !== 'lon')) value[k] = v;
  }
  return { row, value };
}
