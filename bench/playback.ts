/**
 * Time playback on the map at 1M incidents (issue 15, item 7): the real renderer in Debian's
 * Chromium over the web host, the Map view with all history (every seeded incident) and the time
 * slider open. Prints one JSON object per figure with its bound:
 *
 * - `open`: from the "Time playback" click to the first period drawn — getPlaybackPoints (the
 *   engine sorts the filter's incidents by day once, in its worker) and the page receiving the
 *   packed columns (informational);
 * - `step-week` / `step-day`: median ms per step (bound 100) over `--steps` steps forward, each
 *   measured in the page from the step's request to its incidents drawn on the canvas (React's
 *   render of the slider included); p95 and max beside it, and the incidents per step.
 *
 *   npx tsx bench/playback.ts [--count 1000000] [--steps 40]
 *
 * The seeded file is cached in bench/results/ (same schema and count) and copied to a fresh temp
 * folder, removed at the end with the host and the browser (also on Ctrl+C). Builds first when
 * out/ is older than its sources.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { quantile, round } from './lib/stats';
import { startHost, type HostProcess } from './lib/webHostProcess';
import { ensureBuilt, seededFile } from './lib/prepared';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);
const steps = Number(arg('steps') ?? 40);
const STEP_BOUND_MS = 100;
const TIMEOUT_MS = 180_000;

const out = (figure: Record<string, unknown>) =>
  console.log(JSON.stringify({ bench: 'playback', ...figure, load: loadavg().map((l) => round(l, 2)) }));

const seeded = (): string =>
  seededFile('playback', count, (s) => out({ figure: 'seed', count, ms: round(s.ms) }));

const stepTimes = (page: Page) => page.evaluate(() => [...(window.__blotterPlayback?.stepMs ?? [])]);

/** `steps` steps forward with the slider's button, each waited for; their in-page times. */
async function stepForward(page: Page, n: number): Promise<{ ms: number[]; incidents: number[] }> {
  const panel = page.getByTestId('playback');
  const forward = panel.getByRole('button', { name: /Step forward/ });
  await page.evaluate(() => (window.__blotterPlayback = { stepMs: [] }));
  const incidents: number[] = [];
  for (let k = 0; k < n; k++) {
    if (await forward.isDisabled()) break;
    const before = await panel.getAttribute('data-index');
    await forward.click();
    await page.waitForFunction(
      (b) => document.querySelector('[data-testid="playback"]')?.getAttribute('data-index') !== b,
      before,
    );
    incidents.push(Number(await panel.getAttribute('data-count')));
  }
  await page.waitForFunction((m) => (window.__blotterPlayback?.stepMs.length ?? 0) >= m, incidents.length);
  return { ms: await stepTimes(page), incidents };
}

function report(figure: string, r: { ms: number[]; incidents: number[] }): void {
  const median = quantile(r.ms, 0.5);
  out({
    figure,
    steps: r.ms.length,
    medianMs: round(median),
    p95Ms: round(quantile(r.ms, 0.95)),
    maxMs: round(Math.max(...r.ms)),
    incidentsPerStep: { median: quantile(r.incidents, 0.5), max: Math.max(...r.incidents) },
    boundMs: STEP_BOUND_MS,
    ok: median <= STEP_BOUND_MS,
  });
}

async function run(state: { host: HostProcess | null; browser: Browser | null; dataDir: string }) {
  const seed = seeded();
  copyFileSync(seed, path.join(state.dataDir, 'blotter.sqlite'));
  await ensureBuilt();
  state.host = await startHost(state.dataDir);
  state.browser = await chromium.launch({
    executablePath: process.env.BLOTTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await state.browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(TIMEOUT_MS);
  await page.goto(state.host.url);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Map', exact: true })
    .click();
  await page.locator('[data-testid="map"][data-map-state="ready"]').waitFor();
  // All history: every seeded incident is in the filter (and so in the playback).
  await page
    .getByRole('region', { name: 'Filters' })
    .getByRole('group', { name: 'Date range' })
    .getByRole('button', { name: 'All history' })
    .click();
  await page.waitForFunction((n) => (window.__blotterPerf?.points?.incidents ?? 0) >= n * 0.99, count);

  const opened = performance.now();
  await page.getByRole('button', { name: 'Time playback' }).click();
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="playback"]');
    return el?.getAttribute('data-from') && Number(el.getAttribute('data-count')) > 0;
  });
  out({
    figure: 'open',
    ms: round(performance.now() - opened),
    note: 'getPlaybackPoints of every incident and the first period drawn; informational',
  });

  report('step-week', await stepForward(page, steps));
  await page
    .getByTestId('playback')
    .getByRole('group', { name: 'Step' })
    .getByRole('button', { name: 'Day' })
    .click();
  report('step-day', await stepForward(page, steps));
}

async function main(): Promise<void> {
  const state = {
    host: null as HostProcess | null,
    browser: null as Browser | null,
    dataDir: mkdtempSync(path.join(tmpdir(), 'blotter-bench-playback-')),
  };
  let cleaning: Promise<void> | null = null;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await state.browser?.close().catch(() => undefined);
      await state.host?.stop();
      rmSync(state.dataDir, { recursive: true, force: true });
    })());
  const interrupted = () => void cleanUp().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await run(state);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
