/**
 * Imports of one engine: preview (read the whole file and check every row — large CSV files on
 * several threads, parallelPreview.ts — keeping the valid rows in staging files; the archive is not
 * touched), then run (write the staged rows in one transaction: merge.ts) or discard. One import at a time;
 * a new preview replaces one not yet run. Progress goes out as `importProgress` events; a run ends
 * with `incidentsChanged` so every view re-queries.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { open, rm, stat } from 'node:fs/promises';
import type { ImportPreview, ImportResult, ImportSource } from '../../../src-shared/exports';
import type { ColumnMapping } from '../../../src-shared/importMapping';
import type { ImportInspection } from '../../../src-shared/importMappingCalls';
import type { EngineCore } from '../core';
import { EngineError } from '../errors';
import { createLogger } from '../log';
import type { QueryService } from '../query/index';
import { deferCheckpoint } from '../store/backgroundCheckpoint';
import { WriteTurns } from '../store/writeTurns';
import { detectFormat, type Detected } from './detect';
import { encodingOf } from './utf8Text';
import { decodeWindows1252 } from '../files/windows1252';
import { FileProblem } from './fileProblem';
import { columnsProblem, mappedColumnsProblem } from './columns';
import { CsvRecordReader } from './csvRecords';
import { mapper } from './mapping/apply';
import { inspectCsv, proposalFor, respelled, zoneList } from './mapping/inspect';
import { loadMappings, mappingForHeader, saveMapping } from './mapping/savedMappings';
import { mergeRows, phases, type MergeCounts } from './merge';
import { NoHelperThread, onHelperThread } from './mergeThread';
import type { MergeJob, Merged, MergeWorkerData, Placed, ReferenceAdded } from './mergeWorker';
import { weighStaged, type WeighInput, type Weighed } from './weigh';
import { refuseOnReplica } from '../store/standalone';
import { originOf } from '../store/imports/importProvenance';
import { FUTURE_SKEW_MS } from './normalize';
import { checkCsvInParallel } from './parallelPreview';
import { readRecords } from './readRecords';
import { checkRecords, CheckTally, failuresOf, nothingUsable, type CheckRules } from './rowChecks';
import { importsDirOf, openSource, removeAbandonedUploads, type OpenedSource } from '../files/sources';
import { removeStageFiles, stageFileOf, StageWriter } from './stage';
import {
  addReference,
  countUnplaced,
  placeUnplaced,
  saveUnplaced,
  type UnplacedRow,
} from './places/unplaced';
import { settleUnplaced, unplacedZone } from './places/unplacedRows';

const log = createLogger('import');
const PROGRESS_EVERY_MS = 150;
/** Imports of this many rows checkpoint the log afterwards on another thread (backgroundCheckpoint.ts). */
const BACKGROUND_CHECKPOINT_ROWS = 20_000;
/** Reference files from this size are read into the archive on the helper thread. */
const REFERENCE_HELPER_BYTES = 1024 * 1024;

export type ImportOptions = {
  /** CSV files from this size are checked on several threads (parallelPreview.ts). */
  parallelMinBytes: number;
  /** Threads for that. */
  threads: number;
  /** Characters per chunk handed to a thread. */
  chunkChars?: number;
  /** Bytes per read of the file (tests: pieces that end anywhere in a record). */
  readBytes?: number;
  /** The check threads' heap limits (none by default). */
  threadLimits?: ResourceLimits;
  /**
   * Files of this many valid rows are weighed and merged on the import's helper thread
   * (mergeThread.ts), off the engine's call path; smaller ones here, where a thread's start
   * would cost more than the work.
   */
  helperMinRows: number;
};

const DEFAULT_OPTIONS: ImportOptions = {
  parallelMinBytes: 8 * 1024 * 1024,
  // One core is left to the engine thread, which answers the views meanwhile (issue 31: on two
  // cores two check threads made the map's counts wait past 100 ms; one keeps them under).
  threads: Math.min(4, Math.max(1, availableParallelism() - 1)),
  helperMinRows: 5_000,
};

type Current = {
  id: string;
  source: OpenedSource;
  detected: Detected;
  mtimeMs: number;
  valid: number;
  distinct: number;
  existing: number;
  /** The valid rows' cdids rise in file order (merge.ts inserts hashed ids sorted). */
  ascending: boolean;
  errorCount: number;
  /** No row is usable: the run refuses with this (which field failed on how many rows). */
  unusable: string | null;
  /** The staging files holding the preview's valid rows (stage.ts): the run writes these. */
  stageFiles: string[];
  /** A mapping the page previewed with: saved for the file's header shape when the import runs. */
  saveOnRun?: { columns: string[]; mapping: ColumnMapping };
  /** Rows with an address but no coordinates, in their zone: kept as unplaced by the run. */
  unplaced: UnplacedRow[];
};

/** A file the mapping editor inspected (inspectImport), previewed again as the mapping changes. */
type Inspected = { id: string; source: OpenedSource; columns: string[] };

export class Imports {
  private current: Current | null = null;
  private inspected: Inspected | null = null;
  private busy = false;
  /** The running step's Cancel (`cancel`): its reason is what the cancelled call answers. */
  private step: AbortController | null = null;
  private readonly options: ImportOptions;
  /** The background checkpoint after the last large import, while it runs. */
  private checkpointing: Promise<void> = Promise.resolve();
  /** A write on the helper thread, while it runs (the engine waits for it to close). */
  private merging: Promise<unknown> = Promise.resolve();
  /** The engine's write turns: a merge on the helper thread holds them (store/writeTurns.ts). */
  private readonly turns: WriteTurns;

  constructor(
    private readonly ctx: Pick<EngineCore, 'db' | 'dataDir' | 'emit'> & {
      query: QueryService;
      writeTurns?: WriteTurns;
    },
    private readonly now: () => number = Date.now,
    options: Partial<ImportOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
    this.turns = ctx.writeTurns ?? new WriteTurns();
  }

  async preview(sourceInput: ImportSource | undefined, mapping?: ColumnMapping): Promise<ImportPreview> {
    // An office replica takes no file (merge.ts refuses it too): say so before reading a row of it.
    refuseOnReplica(this.ctx.db, 'import files');
    if (mapping) usable(mapping);
    return fileProblemsAsBadInput(() =>
      this.read(openSource(this.ctx.dataDir, sourceInput), mapping, 'preview'),
    );
  }

  /**
   * The mapping editor's first look at a file (CSV): its columns, first rows, each column's values
   * and a proposed mapping — the one saved for the same header shape when there is one. Nothing is
   * staged; previewMapped reads the file through the mapping the page settles on.
   */
  async inspect(sourceInput: ImportSource | undefined): Promise<ImportInspection> {
    const source = openSource(this.ctx.dataDir, sourceInput);
    return fileProblemsAsBadInput(() =>
      this.exclusive(async () => {
        await this.dropCurrent(this.current?.source.file !== source.file);
        await this.dropInspected(source.file);
        const { format } = await head(source.file);
        const id = randomBytes(8).toString('hex');
        const base = { fileId: id, fileName: source.name };
        if (format.reader !== 'csv') {
          // JSON and NDJSON are read by their own field names (a mapping only through the CLI).
          this.inspected = { id, source, columns: [] };
          return {
            ...base,
            ownColumns: true,
            columns: [],
            sample: [],
            rowsRead: 0,
            values: {},
            proposal: {},
            zones: [],
          };
        }
        const found = await inspectCsv(source.file, format.encoding);
        this.inspected = { id, source, columns: found.columns };
        const ownColumns = columnsProblem(found.columns, 'columns') === null;
        const saved = mappingForHeader(this.ctx.dataDir, found.columns);
        const {
          mapping: proposed,
          zones,
          certainty,
        } = await proposalFor(found, saved ? null : source.file, format.encoding, source.name);
        const stem = source.name.replace(/\.[^.]*$/, '').slice(0, 100) || 'mapping';
        return {
          ...base,
          ownColumns,
          columns: found.columns,
          sample: found.sample,
          rowsRead: found.rowsRead,
          values: found.values,
          proposal: saved ? respelled(saved, found.columns) : { ...proposed, name: stem },
          ...(saved ? { saved: saved.name } : {}),
          // A saved mapping is the analyst's own: nothing in it is a guess.
          certainty: saved ? [] : certainty,
          zones: zoneList(zones),
        };
      }),
    );
  }

  /** Previews the inspected file through `mapping` (none: Blotter's own columns); saved when it runs. */
  async previewMapped(fileId: string, mapping?: ColumnMapping): Promise<ImportPreview> {
    const inspected = this.inspectedOf(fileId);
    refuseOnReplica(this.ctx.db, 'import files');
    if (mapping) usable(mapping);
    return fileProblemsAsBadInput(() => this.read(reopen(inspected.source), mapping, 'page'));
  }

  /** Saves `mapping` by name for the inspected file's header shape. */
  async saveMapping(fileId: string, mapping: ColumnMapping): Promise<{ saved: string }> {
    const { columns } = this.inspectedOf(fileId);
    usable(mapping);
    const problem = mappedColumnsProblem(columns, mapping);
    if (problem) throw new EngineError('bad_input', problem);
    await saveMapping(this.ctx.dataDir, columns, mapping, this.now());
    return { saved: mapping.name };
  }

  /** The mappings saved in the data folder: name, when, and how many columns their header has. */
  listMappings(): { mappings: { name: string; savedAt: number; columns: number }[] } {
    return {
      mappings: loadMappings(this.ctx.dataDir)
        .map((s) => ({ name: s.mapping.name, savedAt: s.savedAt, columns: s.shape.split('\u0000').length }))
        .sort((a, b) => b.savedAt - a.savedAt),
    };
  }

  /** The mapping saved under `name` (names compared as written, then trimmed and case-folded). */
  savedMapping(name: string): ColumnMapping {
    const saved = loadMappings(this.ctx.dataDir).map((s) => s.mapping);
    const fold = (n: string) => n.trim().toLowerCase();
    const found = saved.find((m) => m.name === name) ?? saved.find((m) => fold(m.name) === fold(name));
    if (found) return found;
    const names = saved.map((m) => `"${m.name}"`).join(', ');
    throw new EngineError(
      'not_found',
      `No mapping is saved as "${name}". ${names ? `Saved: ${names}.` : 'None is saved in this data folder yet.'}`,
    );
  }

  private async read(
    source: OpenedSource,
    mapping: ColumnMapping | undefined,
    from: 'preview' | 'page',
  ): Promise<ImportPreview> {
    return this.exclusive(async () => {
      await this.dropCurrent(this.current?.source.file !== source.file);
      const importsDir = importsDirOf(this.ctx.dataDir);
      mkdirSync(importsDir, { recursive: true });
      removeStageFiles(importsDir); // any a crash left behind
      removeAbandonedUploads(importsDir, source.file, this.now());
      const { text: start, format } = await head(source.file);
      // A file of another system's columns: the mapping given (saved for next time), or the one
      // saved for the same header shape (mapping/savedMappings.ts).
      const columns = format.reader === 'csv' ? csvHeaderOf(start, format.separator) : null;
      const chosen =
        mapping ??
        (columns && columnsProblem(columns, 'columns')
          ? mappingForHeader(this.ctx.dataDir, columns)
          : undefined);
      if (mapping && columns && from === 'preview')
        await saveMapping(this.ctx.dataDir, columns, mapping, this.now());
      const detected: Detected = { ...format, ...(chosen ? { mapping: chosen } : {}) };
      const mtimeMs = (await stat(source.file)).mtimeMs;
      const id = randomBytes(8).toString('hex');
      const parallel = detected.reader === 'csv' && source.bytes >= this.options.parallelMinBytes;
      let stageFiles = Array.from({ length: parallel ? this.options.threads : 1 }, (_, k) =>
        stageFileOf(importsDir, id, k),
      );
      const progress = this.throttled('reading', source.bytes);
      const rules: CheckRules = { notAfter: this.now() + FUTURE_SKEW_MS };
      const signal = this.signal();
      let tally: CheckTally;
      try {
        if (!parallel)
          tally = await checkInThisThread(
            source.file,
            detected,
            stageFiles[0] as string,
            progress,
            rules,
            signal,
          );
        else {
          try {
            tally = await checkCsvInParallel({
              file: source.file,
              detected,
              stageFiles,
              onBytes: progress,
              rules,
              signal,
              ...(this.options.chunkChars ? { chunkChars: this.options.chunkChars } : {}),
              ...(this.options.readBytes ? { readBytes: this.options.readBytes } : {}),
              ...(this.options.threadLimits ? { limits: this.options.threadLimits } : {}),
            });
          } catch (error) {
            // The file's, not the threads' — or the analyst's Cancel.
            if (error instanceof FileProblem || signal.aborted) throw error;
            // A check thread that failed (no bundle, out of memory): read the file here instead.
            log.warn('the check threads failed; reading the file on the engine thread', { error });
            removeStageFiles(importsDir, id);
            stageFiles = [stageFileOf(importsDir, id, 0)];
            tally = await checkInThisThread(
              source.file,
              detected,
              stageFiles[0] as string,
              progress,
              rules,
              signal,
            );
          }
        }
        if (tally.rows === 0)
          throw new FileProblem(
            detected.reader === 'csv'
              ? 'The file has a header row but no records under it: there is nothing to import.'
              : 'The file holds no records: there is nothing to import.',
          );
      } catch (error) {
        removeStageFiles(importsDir, id);
        throw error;
      }
      progress(source.bytes, true);
      // Distinct cdids, how many of them the archive already holds, and what the run would change.
      const { valid } = tally;
      let weighed: Weighed;
      try {
        weighed = await this.weigh({
          dbFile: this.ctx.db.name,
          stageFiles,
          rows: tally.rows,
          cdids: tally.cdid.slice(0, valid),
        });
        signal.throwIfAborted(); // a cancelled preview stages nothing
      } catch (error) {
        removeStageFiles(importsDir, id);
        throw error;
      }
      const { ascending, distinct, existing, repeats, held: changes } = weighed;
      // Rows without coordinates: their time in the mapping's zone, else most placed rows', else the area's.
      const zone = unplacedZone(this.ctx.db, detected.mapping?.timezone, tally.zones);
      const settled = settleUnplaced(tally.unplaced, zone.zone, rules.notAfter);
      for (const e of settled.problems) if (tally.errors.length < 500) tally.errors.push(e);
      const errorCount = tally.errorCount + settled.problems.length;
      const failures = failuresOf(tally);
      const unusable =
        valid === 0 && settled.rows.length === 0 ? nothingUsable({ fileName: source.name, failures }) : null;
      this.current = {
        id,
        source,
        detected,
        mtimeMs,
        valid,
        distinct,
        existing,
        ascending,
        errorCount,
        unusable,
        stageFiles,
        ...(mapping && columns && from === 'page' ? { saveOnRun: { columns, mapping } } : {}),
        unplaced: settled.rows,
      };
      log.info('import read', {
        format: detected.format,
        rows: tally.rows,
        valid,
        errors: errorCount,
        parallel,
      });
      return {
        importId: id,
        fileName: source.name,
        format: detected.format,
        ...(detected.mapping ? { mapping: detected.mapping.name } : {}),
        bytes: source.bytes,
        rows: tally.rows,
        valid,
        duplicatesInFile: valid - distinct,
        repeats,
        existing,
        held: changes,
        errorCount,
        errors: tally.errors,
        failures,
        ...(unusable !== null ? { unusable } : {}),
        sample: tally.sample,
        ...(settled.rows.length > 0
          ? {
              unplaced: {
                rows: settled.rows.length,
                zone: zone.zone,
                zoneFrom: zone.from,
                listed: settled.rows
                  .slice(0, 100)
                  .map((r) => ({ row: r.row, address: r.address, reason: r.reason })),
              },
            }
          : {}),
      };
    });
  }

  async run(importId: string, onBadRows: 'skip' | 'abort', place = false): Promise<ImportResult> {
    return this.exclusive(async () => {
      const current = this.currentOf(importId);
      const n = current.errorCount;
      // A file of which no row can be read imports nothing, and says why — never "0 added".
      if (current.unusable !== null)
        throw new EngineError('bad_input', `${current.unusable} Nothing was imported.`);
      if (onBadRows === 'abort' && n > 0)
        throw new EngineError(
          'bad_input',
          `${n} row${n === 1 ? ' has' : 's have'} problems, so nothing was imported. Fix the file, or import only the valid rows.`,
        );
      const info = await stat(current.source.file).catch(() => null);
      if (!info || info.size !== current.source.bytes || info.mtimeMs !== current.mtimeMs)
        throw new EngineError('conflict', 'The file changed since it was previewed. Preview it again.');
      const started = performance.now();
      const progress = this.throttled('writing', current.source.bytes);
      // A merge on the helper thread never checkpoints in its commit: the background checkpoint does.
      const deferred =
        current.valid >= Math.min(BACKGROUND_CHECKPOINT_ROWS, this.options.helperMinRows)
          ? deferCheckpoint(this.ctx.db)
          : null;
      let merged;
      const version = dataVersion(this.ctx);
      try {
        // The preview staged only the valid rows: the bad ones are skipped (or, with 'abort', refused above).
        merged = await this.merge(
          current.valid,
          {
            stageFiles: current.stageFiles,
            expectedNew: current.distinct - current.existing,
            repeats: current.valid > current.distinct,
            ascending: current.ascending,
            origin: originOf(current.source.name, current.detected.mapping),
            now: this.now(),
          },
          (f) => progress(Math.round(current.source.bytes * f), true),
        );
      } catch (error) {
        // Cancel reached the thread after its commit: the rows are in, and the call says so.
        if (!this.signal().aborted || dataVersion(this.ctx) === version) throw error;
        this.ctx.emit({ type: 'incidentsChanged' });
        await this.dropCurrent(true);
        throw new EngineError('conflict', 'The import was already written when Cancel reached it.');
      } finally {
        if (deferred) this.checkpointing = deferred.release();
      }
      const { counts } = merged;
      progress(current.source.bytes, true);
      // Rows without coordinates wait outside the incidents, placed now if asked (engine/import/places).
      const unplaced = current.unplaced.length
        ? saveUnplaced(
            this.ctx.db,
            current.unplaced,
            { fileName: current.source.name, mappingName: current.detected.mapping?.name ?? null },
            this.now(),
          )
        : 0;
      const placed = place && unplaced > 0 ? (await this.place(this.now())).placed : 0;
      if (current.saveOnRun)
        await saveMapping(this.ctx.dataDir, current.saveOnRun.columns, current.saveOnRun.mapping, this.now());
      // A merge on the helper thread's connection is another connection's commit: the query
      // service sees it (data_version) and re-reads in the background, answering meanwhile.
      if (!merged.onThread) this.ctx.query.incidentsWritten();
      this.ctx.emit({ type: 'incidentsChanged' });
      await this.dropCurrent(true);
      const ms = Math.round(performance.now() - started);
      const unchanged = Math.max(0, current.distinct - counts.inserted - counts.updated);
      const skipped = current.errorCount;
      log.info('import written', { ...counts, unchanged, skipped, ms, phases });
      return { ...counts, unchanged, skipped, ms, ...(unplaced > 0 ? { unplaced, placed } : {}) };
    });
  }

  /** Waits for a merge and a background checkpoint still running (the engine is closing). */
  async close(): Promise<void> {
    await this.merging.catch(() => undefined);
    await this.checkpointing;
  }

  /**
   * Places the unplaced rows with the offline locator (places/unplaced.ts). The locator reads every
   * address the archive holds: in an archive of helperMinRows or more it runs on the helper
   * thread's own connection, holding the write turns as a merge does.
   */
  async place(now = this.now()): Promise<Placed> {
    if (countUnplaced(this.ctx.db) === 0)
      return { tried: 0, placed: 0, byMethod: {}, unplaced: 0, cdids: [] };
    const n = this.options.helperMinRows;
    const large =
      Number.isFinite(n) &&
      this.ctx.db.prepare('SELECT 1 FROM incidents LIMIT 1 OFFSET ?').get(n - 1) !== undefined;
    return this.onHelper(large, { task: 'place', dbFile: this.ctx.db.name, now }, () =>
      placeUnplaced(this.ctx.db, now),
    );
  }

  /** Reads a reference file into the archive (places/unplaced.ts): a large one on the helper thread. */
  async addReference(file: string, now: number, name: string): Promise<ReferenceAdded> {
    const large = statSync(file).size >= REFERENCE_HELPER_BYTES;
    return this.onHelper(large, { task: 'reference', dbFile: this.ctx.db.name, file, now, name }, () =>
      addReference(this.ctx.db, file, now, name),
    );
  }

  /** A write on the helper thread (holding the write turns) when `large`, else (or without a thread) here. */
  private async onHelper<T>(large: boolean, data: MergeWorkerData, here: () => T): Promise<T> {
    if (large) {
      try {
        const work = this.turns.hold(() => onHelperThread<T>(data));
        this.merging = work;
        return await work;
      } catch (error) {
        if (!(error instanceof NoHelperThread)) throw error;
        log.warn('the import helper thread did not start; working on the engine thread', { error });
      }
    }
    return here();
  }

  /** The preview's weighing of the staged rows (weigh.ts): on the helper thread for large files. */
  private async weigh(input: WeighInput): Promise<Weighed> {
    if (input.cdids.length >= this.options.helperMinRows) {
      try {
        return await onHelperThread<Weighed>({ task: 'weigh', input }, undefined, [], this.signal());
      } catch (error) {
        if (!(error instanceof NoHelperThread)) throw error;
        log.warn('the import helper thread did not start; weighing the rows on the engine thread', { error });
      }
    }
    return weighStaged(input);
  }

  /**
   * The run's one transaction (merge.ts). Large files merge on the helper thread's own connection
   * while the engine answers calls; it holds the engine's write turns meanwhile, so a sync page
   * that arrives waits for the commit (or went first), never failing "database is locked".
   */
  private async merge(
    rows: number,
    job: MergeJob,
    onProgress: (f: number) => void,
  ): Promise<{ counts: MergeCounts; onThread: boolean }> {
    if (rows >= this.options.helperMinRows) {
      const merged = this.turns.hold(() =>
        onHelperThread<Merged>(
          { task: 'merge', dbFile: this.ctx.db.name, input: job },
          onProgress,
          [],
          this.signal(),
        ),
      );
      this.merging = merged;
      try {
        const done = await merged;
        Object.assign(phases, done.phases);
        return { counts: done.counts, onThread: true };
      } catch (error) {
        if (!(error instanceof NoHelperThread)) throw error;
        log.warn('the import helper thread did not start; merging on the engine thread', { error });
      }
    }
    return { counts: mergeRows(this.ctx.db, { ...job, onProgress }), onThread: false };
  }

  /**
   * Cancels the import's running step (a preview's reading and weighing, a run's merge): its threads
   * end at once, a merge's transaction rolls back (the write turns are then free), a preview stages
   * nothing, and the step's call answers `cancelled`. False when no step is running.
   */
  cancel(): boolean {
    if (!this.step || this.step.signal.aborted) return false;
    this.step.abort(new EngineError('cancelled', 'Import cancelled; nothing was written.'));
    log.info('import cancelled');
    return true;
  }

  /** The running step's signal. */
  private signal(): AbortSignal {
    return (this.step ??= new AbortController()).signal;
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

  private inspectedOf(fileId: string): Inspected {
    if (!this.inspected || this.inspected.id !== fileId)
      throw new EngineError('not_found', 'That file is no longer open for import: choose it again.');
    return this.inspected;
  }

  /** Forgets the inspected file unless it is `keep`, deleting its upload when no import holds it. */
  private async dropInspected(keep: string | null): Promise<void> {
    const inspected = this.inspected;
    if (!inspected || inspected.source.file === keep) return;
    this.inspected = null;
    if (inspected.source.uploaded && this.current?.source.file !== inspected.source.file)
      await rm(inspected.source.file, { force: true });
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
    this.step = new AbortController();
    try {
      return await work();
    } finally {
      this.busy = false;
      this.step = null;
    }
  }

  /** Forgets the pending import and, when asked, deletes its upload. */
  private async dropCurrent(removeUpload: boolean): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current) removeStageFiles(importsDirOf(this.ctx.dataDir), current.id);
    if (current?.source.uploaded && removeUpload) await rm(current.source.file, { force: true });
  }
}

/** The one-thread preview (small files, JSON): read, check, stage. */
async function checkInThisThread(
  file: string,
  detected: Detected,
  stageFile: string,
  onBytes: (bytes: number) => void,
  rules: CheckRules,
  signal: AbortSignal,
): Promise<CheckTally> {
  // On the engine's thread: no sorted copy at the end (the merge sorts; stage.ts).
  const stage = new StageWriter(stageFile, false);
  try {
    const tally = new CheckTally();
    for await (const records of readRecords(file, detected, onBytes)) {
      signal.throwIfAborted();
      tally.add(checkRecords(records, detected, stage, rules));
    }
    stage.close();
    return tally;
  } catch (error) {
    stage.abandon();
    throw error;
  }
}

/** SQLite's count of commits by other connections (the helper thread's merge is one). */
function dataVersion(ctx: Pick<EngineCore, 'db'>): number {
  return ctx.db.pragma('data_version', { simple: true }) as number;
}

/** A mapping proj4 cannot read is the request's fault, said once rather than on every row. */
function usable(mapping: ColumnMapping): void {
  try {
    mapper(mapping);
  } catch (error) {
    throw new EngineError(
      'bad_input',
      `The mapping "${mapping.name}" cannot be used: ${(error as Error).message}`,
    );
  }
}

/** A file that as a whole cannot be imported: said once, as bad input (fileProblem.ts). */
async function fileProblemsAsBadInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FileProblem) throw new EngineError('bad_input', error.message);
    throw error;
  }
}

/** An opened file again, at its size now (it may have changed since it was inspected). */
function reopen(source: OpenedSource): OpenedSource {
  try {
    const info = statSync(source.file);
    if (!info.isFile()) throw new Error('not a file');
    return { ...source, bytes: info.size };
  } catch {
    throw new EngineError(
      'not_found',
      source.uploaded ? 'The uploaded file is gone. Upload it again.' : `Cannot read ${source.file}.`,
    );
  }
}

/** Bytes of a file's start its encoding is judged by (a few ms to read). */
const ENCODING_BYTES = 4 * 1024 * 1024;

/**
 * A file's first 64 kB as text, and what it is: its format (detect.ts), and its encoding judged
 * by its first 4 MB (utf8Text.ts `encodingOf`: a CSV is Windows-1252 when they are not UTF-8 and
 * hold no UTF-8 character).
 */
async function head(file: string): Promise<{ text: string; format: Detected }> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(ENCODING_BYTES);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const start = buf.subarray(0, Math.min(bytesRead, 64 * 1024));
    const format = detectFormat(start.toString('utf8'));
    // JSON is UTF-8 by definition (RFC 8259): only a CSV may be Windows-1252.
    if (format.reader !== 'csv' || encodingOf(buf.subarray(0, bytesRead)) === 'utf-8')
      return { text: start.toString('utf8'), format };
    return { text: decodeWindows1252(start), format: { ...format, encoding: 'windows-1252' } };
  } finally {
    await handle.close();
  }
}

/** A CSV file's header from its first 64 kB (null when it does not end there). */
function csvHeaderOf(start: string, separator: string | undefined): string[] | null {
  const reader = new CsvRecordReader(separator);
  try {
    const [first] = reader.push(start.replace(/^\uFEFF/, ''));
    return first ?? null;
  } catch {
    return null;
  }
}
