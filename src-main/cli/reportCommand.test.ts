/**
 * `blotter report` as a scheduler runs it: a process from a cron-like environment — no TTY (stdin
 * closed, pipes), no D-Bus, no display, the C locale, a bare PATH and HOME, the data folder from
 * BLOTTER_DATA_DIR — printing the app's report page through the web host's headless Chromium.
 * The PDF is checked with poppler's pdfinfo and pdftotext; no Chromium is a clear exit 1.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDatabase } from '../../bench/seed';
import { dbFileOf } from '../engine/dataDir';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { ROOT, type Ran } from './cliTesting';

// A first run may build out/ (electron-vite) before printing.
vi.setConfig({ testTimeout: 300_000 });

let dir: TempDir;
let data: string;

/** `blotter ARGS` with only what cron gives a job (plus `env`): no DBUS_SESSION_BUS_ADDRESS, DISPLAY or TERM. */
function fromCron(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli/main.ts', ...args],
      {
        cwd: ROOT,
        env: {
          PATH: '/usr/bin:/bin',
          HOME: dir.path,
          SHELL: '/bin/sh',
          LOGNAME: 'cron',
          LANG: 'C',
          LC_ALL: 'C',
          ...env,
        },
        timeout: 280_000,
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const pdfinfo = (file: string): string => execFileSync('pdfinfo', [file], { encoding: 'utf8' });
const pdftext = (file: string): string =>
  execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });

beforeAll(() => {
  dir = makeTempDir('blotter-cli-report-');
  data = path.join(dir.path, 'data');
  mkdirSync(data, { mode: 0o700 });
  seedDatabase(dbFileOf(data), { count: 600, seed: 5, endDay: '2025-03-14', days: 60 });
});
afterAll(() => dir.remove());

describe('blotter report', () => {
  it('prints the app’s report to a PDF from a cron-like environment (C locale, no TTY, no D-Bus), on A4 when asked', async () => {
    const out = path.join(dir.path, 'weekly.pdf');
    const r = await fromCron(
      ['report', '--area-id', '1', '--preset', 'all', '--as-of', '2025-03-14', '--paper', 'a4', '--out', out],
      { BLOTTER_DATA_DIR: data },
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(summary).toMatchObject({ file: out, paper: 'a4', asOf: '2025-03-14' });
    const incidents = summary.incidents as number;
    expect(incidents).toBeGreaterThan(30);
    const info = pdfinfo(out);
    expect(info).toMatch(/Page size:\s+59\d(\.\d+)? x 84\d(\.\d+)? pts \(A4\)/);
    const text = pdftext(out);
    // The report page's own words: the area, the count, the provenance box.
    expect(text).toContain('Chicago');
    expect(text).toContain(`${incidents} incidents`);
    expect(text).toMatch(/Provenance|Coverage|coverage/);
    expect(existsSync(path.join(dir.path, 'weekly.manifest.json'))).toBe(true);
  });

  it('prints on Letter by default, the data folder given by --data-dir', async () => {
    const out = path.join(dir.path, 'letter.pdf');
    const r = await fromCron(['report', '--data-dir', data, '--area-id', '2', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(pdfinfo(out)).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
  });

  it('says clearly that no Chromium is installed, exit 1, and writes nothing', async () => {
    const out = path.join(dir.path, 'none.pdf');
    const r = await fromCron(['report', '--data-dir', data, '--out', out], {
      BLOTTER_CHROMIUM: path.join(dir.path, 'no-such-chromium'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No Chromium to print the report with');
    expect(r.stderr).toContain('BLOTTER_CHROMIUM');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a paper it does not know and an --out that is not a PDF (exit 2)', async () => {
    const paper = await fromCron(['report', '--data-dir', data, '--paper', 'legal', '--out', 'x.pdf']);
    expect(paper.code).toBe(2);
    expect(paper.stderr).toContain('--paper must be a4 or letter');
    const pdf = await fromCron(['report', '--data-dir', data, '--out', 'x.csv']);
    expect(pdf.code).toBe(2);
  });
});
