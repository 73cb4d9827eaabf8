/**
 * Export jobs of one engine: start, progress, cancel, finish. A job resolves its filter once (the
 * query engine's set, so the file matches the count), writes through a temporary file, and on
 * success writes its manifest beside the file — the data file and the manifest are renamed into
 * place together only once both are complete (a failure or cancel before leaves neither). CSV and
 * GeoJSON are written here (dataExport.ts); a PDF is printed by the host from the report page (report/reportJob.ts) and handed back with
 * finishReport. Progress goes out as `exportProgress` events, at most every 150 ms plus every
 * change of state. Closing the engine cancels running jobs and removes their partial files.
 */
import type { ReportParams } from '../../../src-shared/reportRoute';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { BridgeError } from '../../../src-shared/contract';
import type {
  ExportFile,
  ExportFormat,
  ExportState,
  Manifest,
  StartExportOutput,
} from '../../../src-shared/exports';
import { featureLabel } from '../boundaries/featureRegion';
import { filterWords } from '../../../src-shared/filterWords';
import type { DayRange, Filters } from '../../../src-shared/filters';
import type { EngineCore } from '../core';
import { EngineError } from '../errors';
import { createLogger } from '../log';
import { incidentCalls, type QueryService } from '../query/index';
import { provenanceOf } from '../provenance/provenance';
import { createAreaStore } from '../areas/areaStore';
import { manifestPathOf, resolveDestination, type Destination } from '../files/destination';
import { publishTogether, removeAll, writeFileAtomically, type Finished } from '../files/fileSink';
import { partPathOf } from '../files/destination';
import { exportFailureOf } from './exportFailure';
import { buildManifest, type FileInfo } from './manifest';
import type { Box } from '../../../src-shared/geo';
import type { Resolved } from '../query/service';

const log = createLogger('export');
const PROGRESS_EVERY_MS = 150;

export type JobStart = {
  format: ExportFormat;
  filters: Filters;
  bom?: boolean;
  includeUnplaced?: boolean;
  destination?: { path: string };
  /** PDF only: the report's as-of day and paper. */
  report?: ReportParams;
};

export type ExportJob = {
  readonly id: string;
  readonly format: ExportFormat;
  readonly filters: Filters;
  readonly bom: boolean;
  /** PDF only: the report's as-of day and paper (src-shared/reportRoute.ts). */
  readonly report: ReportParams;
  /** CSV: the unplaced rows follow the incidents, with empty coordinates (engine/import/places). */
  readonly includeUnplaced: boolean;
  readonly createdAt: number;
  readonly dest: Destination;
  /** The filter's rows; let go once the job is finished (a million rows hold a few MB). */
  resolved: Resolved | null;
  readonly range: DayRange;
  readonly box: Box | null;
  readonly service: QueryService;
  readonly words: string[];
  readonly byType: Record<string, number>;
  state: ExportState;
  done: number;
  total: number;
  cancelRequested: boolean;
  file?: ExportFile;
  manifest?: Manifest;
  error?: BridgeError;
  lastEmit: number;
  /** Runs on cancel (removes partial files); set by the job's runner. */
  onCancel?: () => Promise<void>;
};

/**
 * What a runner wrote: the byte size and rows, and — when the file is still under its temporary
 * name (`file`) — the file for the job to publish together with its manifest.
 */
export type RunnerResult = {
  bytes: number;
  written: number;
  file?: Finished;
  /** What the manifest says about the file beyond its name and size (CRS, field names, cut cells). */
  fileInfo?: FileInfo;
  /**
   * A format that holds its own manifest (GeoPackage: a table) stores it before publishing: given
   * the manifest text for a file size, it writes it and returns the file's final size.
   */
  embedManifest?: (textFor: (bytes: number) => string) => Promise<number>;
};

/** A runner writes the job's file; it returns what it wrote (null: cancelled), or throws. */
/** What an export's jobs and runners use of the engine's core. */
export type ExportCore = Pick<EngineCore, 'db' | 'dataDir' | 'emit' | 'settings' | 'version'>;

export type Runner = (
  job: ExportJob,
  ctx: ExportCore,
  progress: () => void,
) => {
  extra?: Partial<StartExportOutput>;
  done: Promise<RunnerResult | null>;
};

const FINISHED: ExportState[] = ['done', 'failed', 'cancelled'];

/** The rows of a job that is still running. */
export function rowsOf(job: ExportJob): Resolved {
  if (!job.resolved) throw new EngineError('not_found', 'That export has finished.');
  return job.resolved;
}

export class ExportJobs {
  private readonly jobs = new Map<string, ExportJob>();

  constructor(
    private readonly ctx: ExportCore,
    private readonly query: QueryService,
    private readonly runners: Record<ExportFormat, Runner>,
    private readonly now: () => number = Date.now,
  ) {}

  get(id: string): ExportJob {
    const job = this.jobs.get(id);
    if (!job)
      throw new EngineError(
        'not_found',
        'That export is no longer known (it finished long ago, or Blotter restarted).',
      );
    return job;
  }

  async start(input: JobStart): Promise<StartExportOutput> {
    const id = randomBytes(6).toString('hex');
    const service = this.query;
    const counted = await incidentCalls.countIncidents(service, { filters: input.filters });
    const resolved = await service.resolve(input.filters);
    const areas = createAreaStore(this.ctx.db);
    const createdAt = this.now();
    const job: ExportJob = {
      id,
      format: input.format,
      filters: input.filters,
      bom: input.bom === true,
      report: input.report ?? {},
      includeUnplaced: input.includeUnplaced === true && input.format === 'csv',
      createdAt,
      dest: resolveDestination(this.ctx.dataDir, input.format, input.destination?.path, id, createdAt),
      resolved,
      range: resolved.range,
      box: resolved.shape?.box ?? null,
      service,
      words: filterWords(input.filters, {
        range: counted.range,
        areaName: (a) => areas.get(a)?.name,
        featureName: (f) => featureLabel(this.ctx.db, f),
      }),
      byType: counted.byType,
      state: input.format === 'pdf' ? 'printing' : 'running',
      done: 0,
      total: counted.total,
      cancelRequested: false,
      lastEmit: 0,
    };
    this.prune();
    this.jobs.set(id, job);
    const { extra, done } = this.startRunner(job);
    this.emit(job, true);
    void done.then(
      (result) => (result ? this.succeed(job, result) : this.settle(job, 'cancelled')),
      (error: unknown) => this.fail(job, error),
    );
    return { jobId: id, fileName: job.dest.name, total: job.total, ...extra };
  }

  /** The job's runner; one that throws at once fails the job like one that fails later. */
  private startRunner(job: ExportJob): ReturnType<Runner> {
    try {
      return this.runners[job.format](job, this.ctx, () => this.emit(job));
    } catch (error) {
      return { done: Promise.reject(error) };
    }
  }

  async cancel(id: string): Promise<boolean> {
    const job = this.get(id);
    if (FINISHED.includes(job.state)) return false;
    job.cancelRequested = true;
    await job.onCancel?.();
    return true;
  }

  /** Progress as an event: throttled unless `force` (state changes always go out). */
  emit(job: ExportJob, force = false): void {
    const t = performance.now();
    if (!force && t - job.lastEmit < PROGRESS_EVERY_MS) return;
    job.lastEmit = t;
    this.ctx.emit({
      type: 'exportProgress',
      jobId: job.id,
      format: job.format,
      state: job.state,
      done: job.done,
      total: job.total,
      ...(job.file ? { file: job.file } : {}),
      ...(job.manifest ? { manifest: job.manifest } : {}),
      ...(job.error ? { error: { code: job.error.code, message: job.error.message } } : {}),
    });
  }

  /** Cancels what runs (their partial files go) when the engine closes. */
  async closeAll(): Promise<void> {
    await Promise.allSettled(
      [...this.jobs.values()].filter((j) => !FINISHED.includes(j.state)).map((j) => this.cancel(j.id)),
    );
  }

  private async succeed(
    job: ExportJob,
    { bytes: fileBytes, written, file, fileInfo, embedManifest }: RunnerResult,
  ): Promise<void> {
    let bytes = fileBytes;
    // Until both are published, the data file waits under its temporary name: a failure or a
    // cancel from here on removes it, so no data file ever stands without its manifest.
    const manifestFile: Finished = {
      partPath: partPathOf(manifestPathOf(job.dest.path), job.id),
      path: manifestPathOf(job.dest.path),
    };
    try {
      const range: DayRange = job.range;
      const provenance = await provenanceOf(this.ctx, job.service, job.filters, range, job.box);
      const manifestFor = (size: number) =>
        buildManifest({
          version: this.ctx.version,
          createdAt: job.createdAt,
          format: job.format,
          fileName: job.dest.name,
          bytes: size,
          ...(fileInfo ? { fileInfo } : {}),
          bom: job.bom,
          filters: job.filters,
          filterWords: job.words,
          range,
          total: job.total,
          written,
          byType: job.byType,
          provenance,
        });
      const textOf = (size: number) => `${JSON.stringify(manifestFor(size), null, 2)}\n`;
      if (embedManifest) bytes = await embedManifest(textOf);
      const manifest = manifestFor(bytes);
      const text = textOf(bytes);
      if (file) {
        await writeFile(manifestFile.partPath, text, { mode: 0o600 });
        if (job.cancelRequested) throw new EngineError('cancelled', 'The export was cancelled.');
        await publishTogether([file, manifestFile]);
      } else await writeFileAtomically(manifestFile.path, text, job.id);
      job.manifest = manifest;
      job.file = {
        name: job.dest.name,
        path: job.dest.path,
        bytes,
        manifestName: manifestPathOf(job.dest.name),
      };
      job.done = written;
      this.settle(job, 'done');
      log.info('export written', { format: job.format, rows: written, bytes });
    } catch (error) {
      if (file) await removeAll([file, manifestFile]).catch(() => undefined);
      this.fail(job, error);
    }
  }

  private fail(job: ExportJob, error: unknown): void {
    if (job.cancelRequested) return this.settle(job, 'cancelled');
    log.error('export failed', { format: job.format, error });
    const local = error instanceof EngineError ? null : exportFailureOf(error, job.dest.path);
    job.error =
      error instanceof EngineError
        ? { code: error.code, message: error.message }
        : local
          ? { code: local.code, message: local.message }
          : {
              code: 'internal',
              message: `The export could not be written: ${(error as Error)?.message ?? String(error)}`,
            };
    this.settle(job, 'failed');
  }

  private settle(job: ExportJob, state: ExportState): void {
    job.state = state;
    job.resolved = null;
    this.emit(job, true);
  }

  /** Keeps the registry small: finished jobs beyond the last 20 are forgotten. */
  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => FINISHED.includes(j.state));
    for (const job of finished.slice(0, Math.max(0, finished.length - 20))) this.jobs.delete(job.id);
  }
}
