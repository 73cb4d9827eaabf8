/**
 * The sync bench's stranger-server cases: the CLI against a second, independent server written from
 * the spec text alone (src-main/engine/sync/testing/strangerServer.ts), each open point read the less
 * convenient way — degree-space distance, exclusive since, 700 incidents at one point on one day,
 * random 503 pages (HTML) and 429s (Retry-After an HTTP date), types matched exactly as the data
 * spell them, random tie order, duplicated rows, unpadded dates, the window on occurred times.
 *
 * - sync-stranger-{dense-downtown,sparse-suburb,pile}: one folder at the Developer rate (60/min), the
 *   first case paying the probes: recall 1, no rate violation (the server counts them), requests /
 *   ceil(N / 500) ≤ 2 without the retries of the random faults.
 * - sync-stranger-fixed-minute: the three areas again at 20 a minute on a server counting fixed clock
 *   minutes, with 429s that take a slot and Retry-After in decimal seconds: the limiter binds.
 * - sync-stranger-kill-resume: the CLI killed (SIGKILL) after its 6th request, then run again: the same
 *   set as an uninterrupted run, recall 1.
 *
 * `npx tsx bench/sync-stranger.ts --matrix`: each reading on its own (informational, in-process).
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  startStrangerServer,
  type StrangerOptions,
  type StrangerServer,
} from '../src-main/engine/sync/testing/strangerServer';
import { dueIncidents, type Circle } from '../src-main/engine/sync/testing/strangerRun';
import { round, spawnCli, summaryOf } from './sync-lib';

const BOUND = 2;
const HIDDEN: StrangerOptions = { faults: { rate503: 0.06, rate429: 0.06 } };
const out = (o: Record<string, unknown>): void => console.log(JSON.stringify(o));

const areasOf = (s: StrangerServer): [string, Circle][] => [
  ['dense-downtown', { ...s.downtown, radiusMi: 2 }],
  ['sparse-suburb', { ...s.suburb, radiusMi: 2 }],
  ['pile', { lat: s.pile.lat, lon: s.pile.lon, radiusMi: 0.3 }],
];

function args(dir: string, s: StrangerServer, area: Circle): string[] {
  return [
    'sync',
    '--data-dir',
    dir,
    '--base-url',
    s.url,
    '--plan',
    'enterprise',
    '--rate',
    String(s.options.ratePerMinute),
    '--window-days',
    String(s.options.windowDays),
    '--area',
    `${area.lat},${area.lon},${area.radiusMi}`,
  ];
}

/** cdids the folder holds (not removed), and the since day of its last run. */
function folder(dir: string): { stored: Set<number>; since: string } {
  const db = new Database(path.join(dir, 'blotter.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT cdid FROM incidents WHERE removed_at IS NULL').all() as {
      cdid: number;
    }[];
    const run = db.prepare('SELECT since_day FROM sync_runs ORDER BY id DESC LIMIT 1').get() as
      { since_day: string } | undefined;
    return { stored: new Set(rows.map((r) => r.cdid)), since: run?.since_day ?? '9999-12-31' };
  } finally {
    db.close();
  }
}

async function syncCase(s: StrangerServer, name: string, area: Circle, dir: string) {
  const before = s.stats();
  const startedAt = Date.now();
  const run = await spawnCli(args(dir, s, area), s.key).done;
  const summary = summaryOf(run);
  const after = s.stats();
  const f = folder(dir);
  const due = dueIncidents(s, [area], [f.since], startedAt);
  const missing = due.filter((c) => !f.stored.has(c));
  const requests = after.total - before.total;
  const faults = after.injected429 - before.injected429 + (after.injected503 - before.injected503);
  const fair = Math.max(1, Math.ceil(due.length / 500));
  return {
    bench: name,
    exit: run.code,
    incidents: due.length,
    recall: round(due.length === 0 ? 1 : (due.length - missing.length) / due.length, 4),
    missing: missing.slice(0, 5),
    requests,
    cliRequests: summary.requests,
    fairLowerBound: summary.fairLowerBound ?? null,
    fairLowerBoundTruth: fair,
    fairRatio: round(requests / fair),
    faultAnswers: faults,
    fairRatioWithoutRetries: round((requests - faults) / fair),
    violations: after.violations - before.violations,
    wallSeconds: round((Date.now() - startedAt) / 1000, 1),
  };
}

async function series(label: string, opts: StrangerOptions, bounded: boolean): Promise<boolean[]> {
  const s = await startStrangerServer({ key: `bench-stranger-${label}`, ...opts });
  const dir = path.join(tmpdir(), `blotter-bench-${process.pid}-stranger-${label}`);
  rmSync(dir, { recursive: true, force: true });
  const results: boolean[] = [];
  try {
    for (const [name, area] of areasOf(s)) {
      const f = await syncCase(
        s,
        `sync-stranger-${label === 'hidden' ? name : `${label}-${name}`}`,
        area,
        dir,
      );
      const ok =
        f.exit === 0 &&
        f.recall === 1 &&
        f.violations === 0 &&
        (!bounded || f.fairRatioWithoutRetries <= BOUND);
      out({
        ...f,
        server: opts,
        ratePerMinute: s.options.ratePerMinute,
        boundOn: bounded ? 'fairRatioWithoutRetries' : null,
        fairRatioBound: bounded ? BOUND : null,
        violationsBound: 0,
        ok,
      });
      results.push(ok);
    }
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

async function killResume(): Promise<boolean> {
  const s = await startStrangerServer({
    key: 'bench-stranger-kill',
    ratePerMinute: 600,
    latencyMs: 25,
    ...HIDDEN,
  });
  const dirs = ['kill', 'ref'].map((k) => path.join(tmpdir(), `blotter-bench-${process.pid}-stranger-${k}`));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  try {
    const [, area] = areasOf(s)[0] as [string, Circle];
    const startedAt = Date.now();
    const before = s.stats().total;
    const { child, done } = spawnCli(args(dirs[0] as string, s, area), s.key);
    const watch = setInterval(() => {
      if (s.stats().total - before >= 6) child.kill('SIGKILL');
    }, 5);
    const first = await done;
    clearInterval(watch);
    const second = await spawnCli(args(dirs[0] as string, s, area), s.key).done;
    await spawnCli(args(dirs[1] as string, s, area), s.key).done;
    const [killed, ref] = dirs.map((d) => folder(d)) as [
      ReturnType<typeof folder>,
      ReturnType<typeof folder>,
    ];
    const due = dueIncidents(s, [area], [killed.since], startedAt).sort((a, b) => a - b);
    const inArea = (f: typeof killed) => due.filter((c) => f.stored.has(c));
    const a = inArea(killed);
    const b = inArea(ref);
    const same = a.length === b.length && a.every((c, i) => c === b[i]);
    const ok = first.signal === 'SIGKILL' && second.code === 0 && same && a.length === due.length;
    out({
      bench: 'sync-stranger-kill-resume',
      killed: first.signal === 'SIGKILL',
      exitAfterResume: second.code,
      incidents: due.length,
      recall: round(due.length === 0 ? 1 : a.length / due.length, 4),
      sameFinalSet: same,
      violations: s.stats().violations,
      ok,
    });
    return ok;
  } finally {
    await s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** Every stranger case, printed; whether each passed. */
export async function strangerScenarios(): Promise<boolean[]> {
  return [
    ...(await series('hidden', { ratePerMinute: 60, ...HIDDEN }, true)),
    ...(await series(
      'fixed-minute',
      { ratePerMinute: 20, rateWindow: 'fixed', retryAfter: 'decimal', count429: true, ...HIDDEN },
      true,
    )),
    await killResume(),
  ];
}

/**
 * Every reading on its own (`--matrix`, informational, in-process through the sync service): the
 * three areas in a fresh folder per reading; a spec-violating server must end in a clear failure or
 * recall 1, never a wrong "done".
 */
const READINGS: Record<string, StrangerOptions> = {
  'sim-like': {
    ties: 'cdid',
    typesMatch: 'insensitive',
    errorBody: 'json',
    retryAfter: 'seconds',
    duplicateRows: 0,
    unpaddedDates: false,
    extraFields: false,
    window: 'reported',
  },
  'great-circle': { distance: 'great-circle' },
  box: { distance: 'box' },
  '0.01-is-one-mile': { distance: 'hundred-miles' },
  'since-inclusive': { since: 'inclusive' },
  'since-utc': { since: 'utc-exclusive' },
  'since-honolulu': { since: 'honolulu-exclusive' },
  'stale-since-empty': { beforeWindow: 'empty' },
  'window-on-reports': { window: 'reported' },
  'types-exact-400': { typesMatch: 'exact-400' },
  'types-upper': { typeCase: 'upper' },
  'pile-one-type': { pileTypes: 'one' },
  'clamp-0.02': { maxRadius: 0.02, radiusOver: 'clamp' },
  'max-0.02-400': { maxRadius: 0.02 },
  'text-errors': { errorBody: 'text', retryAfter: 'seconds', faults: { rate503: 0.1, rate429: 0.1 } },
  'empty-errors-decimal-retry': {
    errorBody: 'empty',
    retryAfter: 'decimal',
    faults: { rate503: 0.1, rate429: 0.1 },
  },
  'off-spec-cap-50': { pageCap: 50 },
  'off-spec-no-sort-order': { ignoreSortOrder: true },
  'off-spec-sort-occurred': { sortDate: 'occurred' },
  'off-spec-radius-miles': { distance: 'miles' },
  'off-spec-numbers-strings': { numbersAsStrings: true },
};

async function matrix(): Promise<void> {
  const { mkdtempSync } = await import('node:fs');
  const { strangerClient, syncOnce } = await import('../src-main/engine/sync/testing/strangerRun');
  for (const [reading, opts] of Object.entries(READINGS)) {
    const s = await startStrangerServer({
      key: `bench-matrix-${reading}`.slice(0, 40),
      ratePerMinute: 6000,
      ...opts,
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'blotter-bench-matrix-'));
    const client = strangerClient(s, path.join(dir, 'blotter.sqlite'));
    try {
      for (const [name, area] of areasOf(s)) {
        const { figures: f } = await syncOnce(s, client, [{ name, shape: area }]);
        const faults = f.injected429 + f.injected503;
        out({
          bench: 'sync-stranger-matrix',
          reading,
          area: name,
          state: f.state,
          recall: round(f.recall, 4),
          requests: f.requests,
          fairLowerBound: f.fairLowerBound,
          fairRatioWithoutRetries: round((f.requests - faults) / f.fairLowerBound),
          violations: f.violations,
          error: f.error?.slice(0, 120) ?? null,
          wrongDone: f.state === 'done' && f.recall < 1 && f.incomplete.length === 0,
        });
      }
    } finally {
      await client.close();
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] === import.meta.filename) {
  if (process.argv.includes('--matrix')) await matrix();
  else {
    const results = await strangerScenarios();
    if (!results.every(Boolean)) process.exitCode = 1;
  }
}
