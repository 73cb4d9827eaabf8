/**
 * Prints a report page to PDF with Debian's Chromium, headless, driven over the DevTools pipe
 * (`--remote-debugging-pipe`: no debugging port). The print grant reaches Chromium as an HttpOnly,
 * SameSite=Strict cookie sent through the pipe, so neither it nor any token is on Chromium's
 * command line (readable by every local user in /proc/PID/cmdline) or in a URL. The page is
 * printed only once it says it is the report of this job (reportReadiness.ts); an error page, a
 * sign-in page or another job's report fails the job with the reason. A throwaway profile folder,
 * removed after; the process is ended if it hangs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { reportHash, type ReportPaper } from '../../src-shared/reportRoute';
import { createLogger } from '../engine/index';
import { connectCdp, type CdpConnection } from './cdpPipe';
import { judgeReportPage, REPORT_STATE_SCRIPT, type ReportPageState } from './reportReadiness';

const log = createLogger('web-print');

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export type ChromiumPrintOptions = { chromium?: string; timeoutMs?: number; pollMs?: number };

export type PrintRequest = {
  /** `http://127.0.0.1:PORT`: the web host. */
  origin: string;
  jobId: string;
  /** The print grant's cookie (printAccess.ts). */
  cookie: { name: string; value: string };
  file: string;
  /** The page to open; the job's report page by default. */
  path?: string;
  /** The sheet (the report page's route carries it); Letter by default. */
  paper?: ReportPaper;
};

/** Chromium's command line: no URL, no token, no port. */
export function chromiumArgs(profile: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-extensions',
    '--disable-sync',
    '--remote-debugging-pipe',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
}

export async function printWithChromium(
  request: PrintRequest,
  options: ChromiumPrintOptions = {},
): Promise<void> {
  const chromium = options.chromium ?? DEFAULT_CHROMIUM;
  const timeoutMs = options.timeoutMs ?? 90_000;
  const profile = await mkdtemp(path.join(tmpdir(), 'blotter-print-'));
  const child = spawn(chromium, chromiumArgs(profile), {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const cdp = connectCdp(child.stdio[3] as Writable, child.stdio[4] as Readable);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(
          `Chromium could not be started (${chromium}): ${error.message}. Install chromium, or set BLOTTER_CHROMIUM.`,
        ),
      ),
    );
    void exited.then((code) =>
      reject(new Error(`Chromium stopped (exit code ${code}) before the report was printed.`)),
    );
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error('Chromium did not finish printing the report in time.')),
      timeoutMs,
    );
  });
  try {
    const pdf = await Promise.race([printOver(cdp, request, options.pollMs ?? 100), started, timeout]);
    await writeFile(request.file, pdf, { mode: 0o600 });
  } catch (error) {
    if (stderr) log.warn('chromium did not print', { stderr: stderr.slice(-800) });
    throw error;
  } finally {
    clearTimeout(timer);
    await cdp.send('Browser.close').catch(() => undefined);
    const gone = await Promise.race([exited, new Promise((r) => setTimeout(() => r('late'), 3000))]);
    if (gone === 'late') child.kill('SIGKILL');
    cdp.fail(new Error('closed'));
    await rm(profile, { recursive: true, force: true });
  }
}

async function printOver(cdp: CdpConnection, request: PrintRequest, pollMs: number): Promise<Buffer> {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method: string, params: Record<string, unknown> = {}) =>
    cdp.send(method, params, sessionId as string);
  const url = new URL(request.path ?? `/${reportHash(request.jobId, request.paper)}`, request.origin).href;
  const set = await page('Network.setCookie', {
    name: request.cookie.name,
    value: request.cookie.value,
    url: request.origin,
    path: '/',
    httpOnly: true,
    sameSite: 'Strict',
  });
  if (set.success === false) throw new Error('Chromium did not take the print cookie.');
  const nav = await page('Page.navigate', { url });
  if (typeof nav.errorText === 'string' && nav.errorText) {
    throw new Error(`Chromium could not open the report page: ${nav.errorText}.`);
  }
  for (;;) {
    const answer = await page('Runtime.evaluate', { expression: REPORT_STATE_SCRIPT, returnByValue: true });
    const state = (answer.result as { value?: ReportPageState } | undefined)?.value;
    const verdict = judgeReportPage(state, request.jobId);
    if ('fail' in verdict) throw new Error(verdict.fail);
    if ('print' in verdict) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const printed = await page('Page.printToPDF', {
    printBackground: true,
    preferCSSPageSize: true,
    displayHeaderFooter: false,
  });
  const data = Buffer.from(String(printed.data ?? ''), 'base64');
  if (data.length === 0) throw new Error('Chromium wrote no PDF.');
  return data;
}
