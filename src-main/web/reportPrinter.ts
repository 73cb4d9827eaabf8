/**
 * Prints a report page to PDF with Debian's Chromium, headless: `--print-to-pdf` of a one-time
 * sign-in URL that lands on `#/report?job=ID`. `--virtual-time-budget` lets the page fetch its
 * figures and draw its charts before the print (virtual time stands still while requests are
 * pending). A throwaway profile folder, removed after; the process is ended if it hangs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../engine/log';

const log = createLogger('web-print');

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export type ChromiumPrintOptions = { chromium?: string; timeoutMs?: number };

export function chromiumArgs(url: string, file: string, profile: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-extensions',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    '--no-pdf-header-footer',
    '--run-all-compositor-stages-before-draw',
    '--virtual-time-budget=30000',
    `--print-to-pdf=${file}`,
    url,
  ];
}

export async function printWithChromium(
  url: string,
  file: string,
  options: ChromiumPrintOptions = {},
): Promise<void> {
  const chromium = options.chromium ?? DEFAULT_CHROMIUM;
  const profile = await mkdtemp(path.join(tmpdir(), 'blotter-print-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(chromium, chromiumArgs(url, file, profile), {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('Chromium did not finish printing the report in time.'));
      }, options.timeoutMs ?? 90_000);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(
          new Error(
            `Chromium could not be started (${chromium}): ${error.message}. Install chromium, or set BLOTTER_CHROMIUM.`,
          ),
        );
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else {
          log.warn('chromium failed to print', { code, stderr: stderr.slice(-800) });
          reject(new Error(`Chromium stopped with exit code ${code} while printing the report.`));
        }
      });
    });
    const size = (await stat(file).catch(() => null))?.size ?? 0;
    if (size === 0) throw new Error('Chromium wrote no PDF.');
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
