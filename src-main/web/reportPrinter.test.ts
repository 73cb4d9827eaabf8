/**
 * The web host's PDF printer against real headless Chromium (/usr/bin/chromium, or
 * BLOTTER_CHROMIUM) and a small page server: the grant travels over the DevTools pipe (never on
 * a command line), and only a page marked as the job's report is printed.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumArgs, printWithChromium } from './reportPrinter';

const GRANT = 'grant-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_xy';
type Mode = 'report' | 'error-page' | 'report-error' | 'other-job';

let dir: string;
let server: Server;
let origin: string;
let mode: Mode;
let cookiesSeen: string[];

const REPORT_SCRIPT = (job: string) => `
  fetch('/figures').then((r) => r.json()).then((figures) => {
    document.getElementById('root').textContent = 'Report of ' + figures.total + ' incidents';
    document.body.dataset.reportJob = ${JSON.stringify(job)} || location.hash.split('job=')[1];
    document.body.dataset.reportReady = 'true';
  });`;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'blotter-print-test-'));
  cookiesSeen = [];
  server = createServer((req, res) => {
    cookiesSeen.push(req.headers.cookie ?? '');
    const signedIn = (req.headers.cookie ?? '').includes(`blotter_print_1=${GRANT}`);
    if (!signedIn || mode === 'error-page') {
      res.writeHead(signedIn ? 500 : 401, { 'Content-Type': 'text/html' });
      return res.end('<!doctype html><title>Sign in to Blotter</title><h1>Sign in to Blotter</h1>');
    }
    if (req.url === '/figures') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end('{"total": 42}');
    }
    if (req.url === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      if (mode === 'report-error')
        return res.end(`document.body.dataset.reportError = 'There is no report job job1.';`);
      return res.end(REPORT_SCRIPT(mode === 'other-job' ? 'job2' : ''));
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(
      '<!doctype html><title>Blotter</title><body><div id="root"></div><script src="/app.js"></script>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The command lines of every process whose arguments mention a print profile folder. */
function printProcessCmdlines(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('blotter-print-') && !cmdline.includes('vitest')) found.push(cmdline);
    } catch {
      // the process ended
    }
  }
  return found;
}

const print = (file: string) =>
  printWithChromium(
    { origin, jobId: 'job1', cookie: { name: 'blotter_print_1', value: GRANT }, file },
    { chromium: process.env.BLOTTER_CHROMIUM, timeoutMs: 30_000 },
  );

describe('web host: printing a report with headless Chromium', () => {
  it('prints the report, with no token or URL on any command line while it prints', async () => {
    mode = 'report';
    const file = path.join(dir, 'report.pdf');
    const cmdlines: string[] = [];
    const watch = setInterval(() => cmdlines.push(...printProcessCmdlines()), 10);
    try {
      await print(file);
    } finally {
      clearInterval(watch);
    }
    expect(cmdlines.length).toBeGreaterThan(0);
    for (const cmdline of cmdlines) {
      expect(cmdline).not.toContain(GRANT);
      expect(cmdline).not.toContain(origin);
      expect(cmdline).not.toContain('token');
      expect(cmdline).not.toMatch(/--remote-debugging-port/);
    }
    expect(cmdlines.some((c) => c.includes('--remote-debugging-pipe'))).toBe(true);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The grant reached the server as the cookie, over the pipe.
    expect(cookiesSeen.every((c) => c.includes(GRANT))).toBe(true);
  }, 60_000);

  it('fails with a reason, and writes nothing, when the page is an error page', async () => {
    mode = 'error-page';
    const file = path.join(dir, 'error.pdf');
    await expect(print(file)).rejects.toThrow(/"Sign in to Blotter"\) is not Blotter's report/);
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it("fails with the page's reason when the report could not be drawn", async () => {
    mode = 'report-error';
    const file = path.join(dir, 'failed.pdf');
    await expect(print(file)).rejects.toThrow(/could not be drawn: There is no report job job1/);
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it("refuses to print another job's report", async () => {
    mode = 'other-job';
    const file = path.join(dir, 'other.pdf');
    await expect(print(file)).rejects.toThrow(/another job/);
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it('puts neither URL nor token on the command line it builds', () => {
    const args = chromiumArgs('/tmp/profile');
    expect(args).toContain('--remote-debugging-pipe');
    expect(args.join(' ')).not.toMatch(/https?:|token|print=|--remote-debugging-port|--print-to-pdf/);
  });
});
