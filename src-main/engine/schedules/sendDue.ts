/**
 * A host's part in emailed bulletins: on the engine's `reportsDue` (or once, from `blotter report
 * --send-due`), claim the due schedules, print each report as the host prints every PDF export
 * (startExport through the host's hooked handle: the same page, the same printer), then hand the
 * finished job to the engine to mail (`sendScheduledReport`). Contract calls only, so every host
 * runs the same steps; one run at a time per handle.
 */
import type { CallName, CallOutput, EngineEvent } from '../../../src-shared/contract';
import type { DueReport } from '../../../src-shared/reportSchedules';
import type { EngineHandle } from '../engineHandle';
import { withExportHooks, type ExportHostHooks } from '../export/hostHooks';

export type SentReport = { scheduleId: number; dueAt: number; sent: boolean; error?: string };
export type DueRun = { leader: boolean; reports: SentReport[] };

const running = new WeakMap<EngineHandle, Promise<DueRun>>();

async function call<K extends CallName>(
  engine: EngineHandle,
  name: K,
  input: unknown,
): Promise<CallOutput<K>> {
  const r = await engine.call(name, input);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value;
}

/** Prints `due`'s report; resolves with the finished job's id, or rejects with why it failed. */
function printReport(engine: EngineHandle, due: DueReport): Promise<string> {
  return new Promise((resolve, reject) => {
    let jobId: string | null = null;
    const early: Extract<EngineEvent, { type: 'exportProgress' }>[] = [];
    const settle = (e: Extract<EngineEvent, { type: 'exportProgress' }>) => {
      if (e.state === 'running' || e.state === 'printing') return;
      unsubscribe();
      if (e.state === 'done') resolve(e.jobId);
      else reject(new Error(e.error?.message ?? `The report export ended ${e.state}.`));
    };
    const unsubscribe = engine.onEvent((e) => {
      if (e.type !== 'exportProgress') return;
      if (jobId === null) early.push(e);
      else if (e.jobId === jobId) settle(e);
    });
    call(engine, 'startExport', { format: 'pdf', filters: due.filters, report: due.report }).then(
      (started) => {
        jobId = started.jobId;
        for (const e of early.splice(0)) if (e.jobId === jobId) settle(e);
      },
      (error: unknown) => {
        unsubscribe();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function runOnce(engine: EngineHandle): Promise<DueRun> {
  const { due, leader } = await call(engine, 'claimDueReports', {});
  const reports: SentReport[] = [];
  for (const d of due) {
    let answer: CallOutput<'sendScheduledReport'>;
    try {
      const jobId = await printReport(engine, d);
      answer = await call(engine, 'sendScheduledReport', { scheduleId: d.scheduleId, dueAt: d.dueAt, jobId });
    } catch (error) {
      const failed = error instanceof Error ? error.message : String(error);
      answer = await call(engine, 'sendScheduledReport', {
        scheduleId: d.scheduleId,
        dueAt: d.dueAt,
        failed,
      });
    }
    reports.push({ scheduleId: d.scheduleId, dueAt: d.dueAt, ...answer });
  }
  return { leader, reports };
}

/** Sends the due reports through `engine` (a host's hooked handle); a run already going is joined. */
export function sendDueReports(engine: EngineHandle): Promise<DueRun> {
  const now = running.get(engine);
  if (now) return now;
  const run = runOnce(engine).finally(() => running.delete(engine));
  running.set(engine, run);
  return run;
}

/** Runs sendDueReports on every `reportsDue` of `engine`; returns the unsubscribe. */
export function sendReportsWhenDue(engine: EngineHandle, onError: (error: unknown) => void): () => void {
  return engine.onEvent((e) => {
    if (e.type === 'reportsDue') sendDueReports(engine).catch(onError);
  });
}

/**
 * Every host's hookup (web host, Electron): on each `reportsDue`, print through the host's own
 * `printReport` with no dialog — the engine's default destination in the data folder (the job's
 * `.part` file, renamed when printed) — and hand the job to the engine to mail. Its own hooked
 * handle, so a host whose page exports ask for a file (Electron's save dialog) never asks here.
 */
export function sendScheduledReports(
  engine: EngineHandle,
  printReport: ExportHostHooks['printReport'],
  onError: (error: unknown) => void,
): () => void {
  const printing = withExportHooks(engine, {
    chooseDestination: async () => undefined,
    chooseImport: async () => {
      throw new Error('A scheduled report imports nothing.');
    },
    printReport,
  });
  return sendReportsWhenDue(printing, onError);
}
