/**
 * Checking an import's records: each valid row goes to the staging file; what the preview reports
 * (rows read, valid, the first errors and rows, each valid row's cdid and position) comes back as
 * a `CheckedChunk`, and a `CheckTally` adds the chunks up in file order. The same code runs in the
 * engine thread (small files, JSON) and in the parallel preview's threads (large CSV files).
 */
import type { ImportPreview, ImportRowError } from '../../../src-shared/exports';
import type { ColumnMapping } from '../../../src-shared/importMapping';
import type { Detected } from './detect';
import { mapper, type Mapped } from './mapping/apply';
import { normalize, type ImportRow } from './normalize';
import type { RawRecord } from './readRecords';
import type { StageWriter } from './stage';

export const MAX_LISTED_ERRORS = 500;
const SAMPLE = 10;

type Sample = ImportPreview['sample'][number];
type Failure = { rows: number; message: string };

function countFailure(
  into: Map<string | null, Failure>,
  field: string | null,
  rows: number,
  message: string,
) {
  const f = into.get(field);
  if (f) f.rows += rows;
  else into.set(field, { rows, message });
}

/** What checking some records found (records in file order). */
export type CheckedChunk = {
  /** Records read (the file's rows; a JSON file's own problem is not one). */
  rows: number;
  valid: number;
  errorCount: number;
  /** The first errors (at most MAX_LISTED_ERRORS). */
  errors: ImportRowError[];
  /** Every bad row counted by the field that failed (null: the record as a whole), with its first message. */
  failures: Map<string | null, Failure>;
  /** The first valid rows (at most 10). */
  sample: Sample[];
  /** Each valid row's cdid, in order. */
  cdid: Float64Array;
  /** Rows with an address but no coordinates (a mapped file): kept as unplaced (engine/import/places). */
  unplaced: { row: number; mapped: Mapped }[];
  /** The valid rows' zones, counted (an unplaced row's zone is most of the file's). */
  zones: Record<string, number>;
};

/** What every row of one preview is held to, beyond its own fields. */
export type CheckRules = {
  /** The latest instant a row's times may name (the preview's clock plus FUTURE_SKEW_MS). */
  notAfter: number;
};

const mappers = new WeakMap<ColumnMapping, ReturnType<typeof mapper>>();
function mapperOf(mapping: ColumnMapping): ReturnType<typeof mapper> {
  let m = mappers.get(mapping);
  if (!m) mappers.set(mapping, (m = mapper(mapping)));
  return m;
}

/** Blotter's fields → the mapping's column that fills each (the rest are worked out, not read). */
const FILLED_BY: Record<string, (m: ColumnMapping) => string | undefined> = {
  cdid: (m) => m.id,
  type: (m) => m.type,
  address: (m) => m.address,
  description: (m) => m.description,
  occurred_local: (m) => m.date,
  occurred_utc: (m) => m.date,
};

/**
 * A mapped row's problem found by normalize (a time in the future, a text too long) named by the
 * file's column, as a mapping's own problems are — the user never wrote `occurred_local`.
 */
function inFileTerms(p: { field: string | null; message: string }, mapping: ColumnMapping) {
  const column = p.field === null ? undefined : FILLED_BY[p.field]?.(mapping);
  if (column === undefined) return p;
  const words = p.field === 'occurred_local' || p.field === 'occurred_utc' ? 'the date' : 'the value';
  return { field: column, message: `${column}: ${p.message.replace(p.field as string, words)}` };
}

/** A record as a row for the store, or its problem. */
export function checked(
  rec: RawRecord,
  detected: Detected,
  rules: CheckRules,
): ImportRow | { field: string | null; message: string } | { unplaced: Mapped } {
  if ('problem' in rec) return { field: null, message: rec.problem };
  if (detected.mapping) {
    // Another system's columns: mapped to Blotter's fields here, in the check threads too.
    const mapped = mapperOf(detected.mapping)(rec.value as Record<string, string>, rec.row);
    if ('expected' in mapped)
      return { field: mapped.column, message: `${mapped.column}: expected ${mapped.expected}.` };
    if (mapped.unplaced !== undefined) return { unplaced: mapped };
    const row = normalize(mapped, { unneutralise: false, notAfter: rules.notAfter, namespaced: true });
    if (!Array.isArray(row)) return inFileTerms(row, detected.mapping);
    row[18] = mapped.attributes;
    row[19] = mapped.external_id ?? null;
    row[20] = mapped.subtype ?? null;
    return row;
  }
  const blotter = detected.format === 'blotter-csv';
  return normalize(rec.value, {
    unneutralise: blotter,
    notAfter: rules.notAfter,
    namespaced: blotter,
    keptColumns: blotter,
  });
}

/** Checks `records`, staging each valid row under its row number. */
export function checkRecords(
  records: RawRecord[],
  detected: Detected,
  stage: StageWriter,
  rules: CheckRules,
): CheckedChunk {
  const n = records.length;
  const out: CheckedChunk = {
    rows: 0,
    valid: 0,
    errorCount: 0,
    errors: [],
    failures: new Map(),
    sample: [],
    cdid: new Float64Array(n),
    unplaced: [],
    zones: {},
  };
  for (const rec of records) {
    if (rec.row > 0) out.rows++;
    const result = checked(rec, detected, rules);
    if ('unplaced' in result) {
      out.unplaced.push({ row: rec.row, mapped: result.unplaced });
      continue;
    }
    if (!Array.isArray(result)) {
      out.errorCount++;
      if (out.errors.length < MAX_LISTED_ERRORS) out.errors.push({ row: rec.row, ...result });
      countFailure(out.failures, result.field, 1, result.message);
      continue;
    }
    stage.add(rec.row, result);
    out.zones[result[8]] = (out.zones[result[8]] ?? 0) + 1;
    const v = out.valid++;
    out.cdid[v] = result[0];
    if (out.sample.length < SAMPLE) out.sample.push(sampleOf(result));
  }
  out.cdid = out.cdid.subarray(0, out.valid);
  return out;
}

function sampleOf(r: ImportRow): Sample {
  const [cdid, type, address, lat, lon, , , occurredLocal, timezone] = r;
  return { cdid, type, subtype: r[20] ?? null, address, lat, lon, occurredLocal, timezone };
}

/** The chunks of one preview, added up in file order. */
export class CheckTally {
  rows = 0;
  valid = 0;
  errorCount = 0;
  readonly errors: ImportRowError[] = [];
  readonly failureMap = new Map<string | null, Failure>();
  readonly sample: Sample[] = [];
  cdid: Float64Array = new Float64Array(1024);
  readonly unplaced: CheckedChunk['unplaced'] = [];
  readonly zones: Record<string, number> = {};

  add(c: CheckedChunk): void {
    for (const u of c.unplaced) this.unplaced.push(u);
    for (const [zone, k] of Object.entries(c.zones)) this.zones[zone] = (this.zones[zone] ?? 0) + k;
    this.rows += c.rows;
    this.errorCount += c.errorCount;
    for (const [field, f] of c.failures) countFailure(this.failureMap, field, f.rows, f.message);
    for (const e of c.errors) if (this.errors.length < MAX_LISTED_ERRORS) this.errors.push(e);
    for (const s of c.sample) if (this.sample.length < SAMPLE) this.sample.push(s);
    const need = this.valid + c.valid;
    if (need > this.cdid.length) {
      const size = Math.max(need, this.cdid.length * 2);
      this.cdid = grow(this.cdid, size);
    }
    this.cdid.set(c.cdid, this.valid);
    this.valid = need;
  }
}

/** The bad rows by field, most first (the preview's `failures`). */
export function failuresOf(tally: CheckTally): ImportPreview['failures'] {
  return [...tally.failureMap]
    .map(([field, f]) => ({ field, rows: f.rows, message: f.message }))
    .sort((a, b) => b.rows - a.rows);
}

/**
 * Nothing in the file can be imported: which field failed on how many rows, in one sentence
 * (the CLI's failure line and the run's refusal), e.g. "Incident Datetime failed on 11,884 rows
 * (Incident Datetime: expected a date such as …)".
 */
export function nothingUsable(p: Pick<ImportPreview, 'fileName' | 'failures'>): string {
  const n = (k: number) => k.toLocaleString('en-US');
  const parts = p.failures.slice(0, 3).map((f) => {
    const why =
      f.field !== null && f.message.startsWith(`${f.field}: `)
        ? f.message.slice(f.field.length + 2)
        : f.message;
    return `${f.field ?? 'the record'} failed on ${n(f.rows)} row${f.rows === 1 ? '' : 's'} (${why.replace(/\.$/, '')})`;
  });
  const more = p.failures.length > 3 ? `; ${p.failures.length - 3} more fields failed too` : '';
  return `No row of ${p.fileName} can be imported: ${parts.join('; ')}${more}.`;
}

function grow(a: Float64Array, size: number): Float64Array {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}
