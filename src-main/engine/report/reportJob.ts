/**
 * The PDF runner of an export job. The engine cannot print (it runs under plain Node); the host
 * can (Electron: a hidden window's printToPDF; web host: headless Chromium). So a PDF job builds
 * its report model, answers startExport with a one-time print token and the temporary file to
 * print into, and waits in state `printing`. The host opens the report page (`#/report?job=ID`,
 * which asks getReport for the model), prints it into that file and calls finishReport with the
 * token; the engine checks the file is a PDF, and the job renames it into place together with its
 * manifest (a failure before both are complete leaves neither). No answer within
 * REPORT_TIMEOUT_MS fails the job; a cancel removes the file.
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { open, rm, stat } from 'node:fs/promises';
import type { ReportModel } from '../../../src-shared/exports';
import { EngineError } from '../errors';
import { partPathOf } from '../files/destination';
import type { ExportJob, Runner, RunnerResult } from '../export/jobs';
import type { AnalysisService } from '../analysis/service';
import { analysesManifest, analysisJobIds } from './reportAnalyses';
import { bulletinManifest } from './bulletin';
import { buildReportModel } from './reportModel';
import { reportPaperOf } from './reportPaper';
import { reportOptionsOf } from '../../../src-shared/reportOptions';

export const REPORT_TIMEOUT_MS = 120_000;

type Pending = {
  token: string;
  part: string;
  model: Promise<ReportModel>;
  settle: (result: RunnerResult | null, error?: unknown) => void;
};

const pending = new WeakMap<ExportJob, Pending>();

const sameToken = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * `analysis` gives the engine's analysis service (built after the export jobs) for the report's
 * hot spot map and CompStat table; without it a report asked for them leaves them out.
 */
export function pdfRunner(
  timeoutMs = REPORT_TIMEOUT_MS,
  analysis: () => AnalysisService | null = () => null,
): Runner {
  return (job, ctx) => {
    const token = randomBytes(24).toString('base64url');
    const part = partPathOf(job.dest.path, job.id);
    let settle!: Pending['settle'];
    const done = new Promise<RunnerResult | null>((resolve, reject) => {
      const timer = setTimeout(
        () => settle(null, new EngineError('internal', 'The report was not printed in time. Try again.')),
        timeoutMs,
      );
      settle = (result, error) => {
        clearTimeout(timer);
        pending.delete(job);
        if (error) reject(error);
        else resolve(result);
      };
    });
    const analyses = analysis();
    const model = buildReportModel(job, ctx, analyses);
    model.catch((error: unknown) => settle(null, error));
    pending.set(job, { token, part, model, settle });
    job.onCancel = async () => {
      settle(null);
      if (analyses) for (const id of Object.values(analysisJobIds(job))) analyses.cancel(id);
      await rm(part, { force: true });
    };
    const cleaned = done.catch(async (error: unknown) => {
      await rm(part, { force: true });
      throw error;
    });
    // The printer's sheet is the page's (reportPaper.ts): the job's own, else the Settings choice.
    const paper = reportPaperOf(job, reportOptionsOf(ctx.settings.get().report));
    return { extra: { print: { token, file: part, paper } }, done: cleaned };
  };
}

/** The model of a PDF job still being printed (the report page asks for it). */
export function reportModelOf(job: ExportJob): Promise<ReportModel> {
  const p = pending.get(job);
  if (!p) throw new EngineError('not_found', 'That report is no longer being printed.');
  return p.model;
}

/** The host's answer: printed into the file (checked), or failed. False for a wrong token or a finished job. */
export async function finishPrint(job: ExportJob, token: string, failed?: string): Promise<boolean> {
  const p = pending.get(job);
  if (!p || !sameToken(p.token, token)) return false;
  if (failed !== undefined) {
    p.settle(null, new EngineError('internal', `The report could not be printed: ${failed}`));
    return true;
  }
  try {
    if (!(await isPdf(p.part))) throw new EngineError('internal', 'The printed report is not a PDF file.');
    // The PDF stays under its temporary name: the job publishes it together with its manifest,
    // which records the parameters of the analyses it prints.
    const model = await p.model;
    const analyses = { ...analysesManifest(model.analyses), bulletin: bulletinManifest(model.bulletin) };
    p.settle({
      bytes: (await stat(p.part)).size,
      written: job.total,
      file: { partPath: p.part, path: job.dest.path },
      fileInfo: { analyses },
    });
  } catch (error) {
    p.settle(null, error);
  }
  return true;
}

async function isPdf(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    return head.toString('latin1') === '%PDF-';
  } finally {
    await handle.close();
  }
}
