/**
 * Prints a PDF export's report page with Chromium's own PDF printer: a hidden window (the main
 * window's web preferences: sandboxed, isolated, the same preload) loads `#/report?job=ID`, the page
 * fetches its figures with getReport and marks itself as that job's drawn report (or says why it
 * could not: web/reportReadiness.ts); only then webContents.printToPDF writes the file, and the
 * window goes. Any other page (an error page, another job's report) fails the job with a reason.
 * Report windows may call the engine like the main window (`isReportSender`).
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { reportHash } from '../../src-shared/reportRoute';
import type { PrintJob } from '../engine/index';
import { judgeReportPage, REPORT_STATE_SCRIPT, type ReportPageState } from '../web/reportReadiness';
import { trustedSenderCheck, type SenderLike, type TrustedWindow } from './senderCheck';
import { mainWindowOptions } from './window';

export interface ReportWindowLike extends TrustedWindow {
  loadURL(url: string): Promise<void>;
  destroy(): void;
  readonly webContents: TrustedWindow['webContents'] & {
    executeJavaScript(code: string): Promise<unknown>;
    printToPDF(options: Record<string, unknown>): Promise<Uint8Array>;
  };
}

export type ReportPrinterDeps<W extends ReportWindowLike> = {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => W;
  preloadPath: string;
  appUrl: string;
  isAppUrl: (url: string) => boolean;
  writeFile: (file: string, data: Uint8Array) => Promise<void>;
  /** Waits between readiness checks (default: a timer). */
  pause?: (ms: number) => Promise<void>;
  timeoutMs?: number;
};

export function createReportPrinter<W extends ReportWindowLike>(deps: ReportPrinterDeps<W>) {
  const open = new Set<W>();
  const pause = deps.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const timeoutMs = deps.timeoutMs ?? 60_000;

  async function waitUntilDrawn(win: W, jobId: string): Promise<void> {
    const started = Date.now();
    for (;;) {
      const state = (await win.webContents.executeJavaScript(REPORT_STATE_SCRIPT)) as ReportPageState | null;
      const verdict = judgeReportPage(state, jobId);
      if ('fail' in verdict) throw new Error(verdict.fail);
      if ('print' in verdict) return;
      if (Date.now() - started > timeoutMs)
        throw new Error('The report page did not finish drawing in time.');
      await pause(100);
    }
  }

  return {
    async print({ jobId, file, paper }: PrintJob): Promise<void> {
      const base = mainWindowOptions(deps.preloadPath);
      const win = new deps.BrowserWindow({
        ...base,
        show: false,
        width: 816,
        height: 1056,
        title: 'Blotter report',
      });
      open.add(win);
      try {
        await win.loadURL(`${deps.appUrl.split('#')[0]}${reportHash(jobId, paper)}`);
        await waitUntilDrawn(win, jobId);
        const pdf = await win.webContents.printToPDF({
          pageSize: paper === 'a4' ? 'A4' : 'Letter',
          printBackground: true,
          preferCSSPageSize: true,
        });
        await deps.writeFile(file, pdf);
      } finally {
        open.delete(win);
        if (!win.isDestroyed()) win.destroy();
      }
    },
    /** True for a call from a report window's own page. */
    isReportSender(event: SenderLike): boolean {
      return [...open].some((win) => trustedSenderCheck(() => win, deps.isAppUrl)(event));
    },
  };
}
