/**
 * Imports of one engine: preview (read the whole file, check every row; nothing is written), then
 * run (read it again and write it in one transaction: merge.ts) or discard. One import at a time;
 * a new preview replaces one not yet run. Progress goes out as `importProgress` events; a run ends
 * with `incidentsChanged` so every view re-queries.
 */
import { randomBytes } from 'node:crypto';
import { open, rm, stat } from 'node:fs/promises';
import type { ImportPreview, ImportResult, ImportRowError, ImportSource } from '../../../src-shared/exports';
import type { EngineContext } from '../context';
import { EngineError } from '../errors';
import { createLogger } from '../log';
import { notifyIncidentsWritten, queryServiceFor } from '../query/index';
import { GONE, type Snapshot } from '../query/snapshot';
import { detectFormat, type Detected } from './detect';
import { mergeRows, phases } from './merge';
import { normalize, type ImportRow } from './normalize';
import { readRecords, readRecordsSync, type RawRecord } from './readRecords';
import { openSource, type OpenedSource } from './sources';
import { StagedRows } from './staging';

const log = createLogger('import');
export const MAX_LISTED_ERRORS = 500;
const SAMPLE = 10;
const PROGRESS_EVERY_MS = 150;
/** Files up to this size keep their checked rows (about as many bytes, off the JS heap) for the run. */
const STAGE_MAX_BYTES = 512 * 1024 * 1024;

type Current = {
  id: string;
  source: OpenedSource;
  detected: Detected;
  mtimeMs: number;
  valid: number;
  distinct: number;
  existing: number;
  errorCount: number;
  /**
   * The preview's valid rows (files up to STAGE_MAX_BYTES; staging.ts): the run writes these
   * instead of reading and checking the file again. Null: the run reads the file again.
   */
  staged: StagedRows | null;
};

const heldIn = (snapshot: Snapshot) => (cdid: number) => {
  const row = snapshot.rowOf(cdid);
  return row >= 0 && snapshot.state[row] !== GONE;
};

export class Imports {
  private current: Current | null = null;
  private busy = false;

  constructor(
    private readonly ctx: Pick<EngineContext, 'db' | 'dataDir' | 'emit'>,
    private readonly now: () => number = Date.now,
  ) {}

  async preview(sourceInput: ImportSource | undefined): Promise<ImportPreview> {
    const source = openSource(this.ctx.dataDir, sourceInput);
    return this.exclusive(async () => {
      await this.dropCurrent(this.current?.source.file !== source.file);
      const detected = detectFormat(await head(source.file));
      const mtimeMs = (await stat(source.file)).mtimeMs;
      const errors: ImportRowError[] = [];
      const sample: ImportPreview['sample'] = [];
      let rows = 0;
      let errorCount = 0;
      let cdids: Float64Array = new Float64Array(1024);
      let valid = 0;
      let staged: StagedRows | null = source.bytes <= STAGE_MAX_BYTES ? new StagedRows() : null;
      const progress = this.throttled('reading', source.bytes);
      for await (const records of readRecords(source.file, detected, progress)) {
        for (const rec of records) {
          if (rec.row > 0) rows++;
          const result = checked(rec, detected);
          if (!Array.isArray(result)) {
            errorCount++;
            if (errors.length < MAX_LISTED_ERRORS) errors.push({ row: rec.row, ...result });
            continue;
          }
          if (valid === cdids.length) cdids = grow(cdids);
          cdids[valid++] = result[0];
          staged?.add(result);
          if (sample.length < SAMPLE) {
            const [cdid, type, address, lat, lon, , , occurredLocal, timezone] = result;
            sample.push({ cdid, type, address, lat, lon, occurredLocal, timezone });
          }
        }
      }
      progress(source.bytes, true);
      // The file changed while it was read: the run reads it again (and refuses it if it changed).
      if ((await stat(source.file)).mtimeMs !== mtimeMs) staged = null;
      // Distinct cdids, and how many of them the archive already holds.
      const sorted = cdids.subarray(0, valid).sort();
      const held = heldIn(await queryServiceFor(this.ctx.db).snapshot());
      let distinct = 0;
      let existing = 0;
      for (let k = 0; k < sorted.length; k++) {
        if (k > 0 && sorted[k] === sorted[k - 1]) continue;
        distinct++;
        if (held(sorted[k] as number)) existing++;
      }
      const id = randomBytes(8).toString('hex');
      this.current = { id, source, detected, mtimeMs, valid, distinct, existing, errorCount, staged };
      log.info('import read', { format: detected.format, rows, valid, errors: errorCount });
      return {
        importId: id,
        fileName: source.name,
        format: detected.format,
        bytes: source.bytes,
        rows,
        valid,
        duplicatesInFile: valid - distinct,
        existing,
        errorCount,
        errors,
        sample,
      };
    });
  }

  async run(importId: string, onBadRows: 'skip' | 'abort'): Promise<ImportResult> {
    return this.exclusive(async () => {
      const current = this.currentOf(importId);
      const fails = (n: number) =>
        new EngineError(
          'bad_input',
          `${n} row${n === 1 ? ' has' : 's have'} problems, so nothing was imported. Fix the file, or import only the valid rows.`,
        );
      if (onBadRows === 'abort' && current.errorCount > 0) throw fails(current.errorCount);
      const info = await stat(current.source.file).catch(() => null);
      if (!info || info.size !== current.source.bytes || info.mtimeMs !== current.mtimeMs)
        throw new EngineError('conflict', 'The file changed since it was previewed. Preview it again.');
      const started = performance.now();
      const snapshot = await queryServiceFor(this.ctx.db).snapshot();
      const progress = this.throttled('writing', current.source.bytes);
      let skipped = 0;
      const { detected, staged } = current;
      function* stagedRows(kept: StagedRows): Generator<ImportRow[]> {
        // The preview kept the valid rows; the bad ones are skipped (or, with 'abort', refused above).
        skipped = current.errorCount;
        yield* kept.chunks((done) => progress(Math.round((current.source.bytes * done) / kept.count)));
      }
      function* rows(): Generator<ImportRow[]> {
        for (const records of readRecordsSync(current.source.file, detected, progress)) {
          const out: ImportRow[] = [];
          for (const rec of records) {
            const result = checked(rec, detected);
            if (Array.isArray(result)) out.push(result);
            else if (onBadRows === 'abort') throw fails(1);
            else skipped++;
          }
          yield out;
        }
      }
      const counts = mergeRows(this.ctx.db, {
        rows: staged ? stagedRows(staged) : rows(),
        heldBefore: heldIn(snapshot),
        expectedNew: current.distinct - current.existing,
        repeats: current.valid > current.distinct,
        now: this.now(),
      });
      progress(current.source.bytes, true);
      notifyIncidentsWritten(this.ctx.db);
      this.ctx.emit({ type: 'incidentsChanged' });
      await this.dropCurrent(true);
      const ms = Math.round(performance.now() - started);
      const unchanged = Math.max(0, current.distinct - counts.inserted - counts.updated);
      log.info('import written', { ...counts, unchanged, skipped, ms, phases });
      return { ...counts, unchanged, skipped, ms };
    });
  }

  async discard(importId: string): Promise<boolean> {
    if (this.current?.id !== importId) return false;
    await this.exclusive(() => this.dropCurrent(true));
    return true;
  }

  /** An importProgress emitter, at most every 150 ms unless forced. */
  private throttled(phase: 'reading' | 'writing', total: number) {
    let last = 0;
    return (done: number, force = false) => {
      const t = performance.now();
      if (!force && t - last < PROGRESS_EVERY_MS) return;
      last = t;
      this.ctx.emit({ type: 'importProgress', phase, done, total });
    };
  }

  private currentOf(importId: string): Current {
    if (!this.current || this.current.id !== importId)
      throw new EngineError('not_found', 'That import is no longer waiting: preview the file again.');
    return this.current;
  }

  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy)
      throw new EngineError('conflict', 'Another import is being read or written. Wait for it to finish.');
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  /** Forgets the pending import and, when asked, deletes its upload. */
  private async dropCurrent(removeUpload: boolean): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current?.source.uploaded && removeUpload) await rm(current.source.file, { force: true });
  }
}

/** A record as a row for the store, or its problem. */
function checked(rec: RawRecord, detected: Detected): ImportRow | { field: string | null; message: string } {
  if ('problem' in rec) return { field: null, message: rec.problem };
  return normalize(rec.value, { unneutralise: detected.format === 'blotter-csv' });
}

function grow(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

async function head(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
