/**
 * Helpers for the sync benchmark: run the CLI as a child process (as a scheduler would), read the
 * data file it wrote, and compare it with the simulator's ground truth.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { milesBetween } from '../src-shared/geo';
import type { Simulator, TruthIncident } from '../src-sim/index';

export const ROOT = path.resolve(import.meta.dirname, '..');

export type Circle = { lat: number; lon: number; radiusMi: number };
export type CliRun = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
};
export type CliSummary = {
  requests: number;
  incidents: number;
  new: number;
  updated: number;
  removed: number;
  rateLimited: number;
  seconds: number;
  lowerBoundRequests: number;
  /** ceil(N / 500) for the areas' incidents after the runs' since (absent before the key existed). */
  fairLowerBound?: number;
  complete?: boolean;
  error?: string;
};

export function spawnCli(args: string[], key: string): { child: ChildProcess; done: Promise<CliRun> } {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, BLOTTER_API_KEY: key, BLOTTER_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started })),
  );
  return { child, done };
}

export function syncArgs(
  dataDir: string,
  sim: Simulator,
  area: Circle,
  rate: number,
  windowDays: number,
): string[] {
  return [
    'sync',
    '--data-dir',
    dataDir,
    '--base-url',
    sim.url,
    '--plan',
    'enterprise',
    '--rate',
    String(rate),
    '--window-days',
    String(windowDays),
    '--area',
    `${area.lat},${area.lon},${area.radiusMi}`,
  ];
}

export function summaryOf(run: CliRun): CliSummary {
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as CliSummary;
  } catch {
    throw new Error(`the CLI printed no JSON summary (exit ${run.code}): ${run.stderr.slice(-500)}`);
  }
}

export type Stored = { cdid: number; type: string; address: string; removed: boolean; reportedUtc: number };

/** Incidents in the data file inside the circle (great-circle miles, as the app's areas measure). */
export function storedIn(dataDir: string, area: Circle): Map<number, Stored> {
  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare('SELECT cdid, type, address, lat, lon, removed_at, occurred_utc FROM incidents')
      .all() as {
      cdid: number;
      type: string;
      address: string;
      lat: number;
      lon: number;
      removed_at: number | null;
      occurred_utc: number;
    }[];
    const out = new Map<number, Stored>();
    for (const r of rows) {
      if (milesBetween(area.lat, area.lon, r.lat, r.lon) > area.radiusMi) continue;
      out.set(r.cdid, {
        cdid: r.cdid,
        type: r.type,
        address: r.address,
        removed: r.removed_at !== null,
        reportedUtc: r.occurred_utc,
      });
    }
    return out;
  } finally {
    db.close();
  }
}

/** Requests the data file's log holds outside any run (the v1 surface probe, connection checks). */
export const outsideRun = (dataDir: string): number =>
  readFolder(
    dataDir,
    (db) =>
      (db.prepare('SELECT count(*) AS n FROM request_log WHERE run_id IS NULL').get() as { n: number }).n,
  );

/** Requests for an area's v1 score and trends in the data file's log (a card's extras, not sync pages). */
export const scoreRequests = (dataDir: string): number =>
  readFolder(
    dataDir,
    (db) =>
      (
        db
          .prepare(
            "SELECT count(*) AS n FROM request_log WHERE url LIKE '%/v1/score%' OR url LIKE '%/v1/trends%'",
          )
          .get() as { n: number }
      ).n,
  );

/** `read` on the folder's data file, opened read-only and closed after. */
function readFolder<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Rows sharing a cdid in the incidents table (the schema's primary key should make this 0). */
export const duplicatesIn = (dataDir: string): number =>
  readFolder(
    dataDir,
    (db) =>
      (db.prepare('SELECT count(*) - count(DISTINCT cdid) AS d FROM incidents').get() as { d: number }).d,
  );

export type RunRecord = {
  id: number;
  kind: string;
  state: string;
  since_day: string;
  started_at: number;
  surface: string;
};

export const runsOf = (dataDir: string): RunRecord[] =>
  readFolder(
    dataDir,
    (db) =>
      db
        .prepare('SELECT id, kind, state, since_day, started_at, surface FROM sync_runs ORDER BY id')
        .all() as RunRecord[],
  );

/**
 * Recall against the ground truth: what the API served inside the area and window, reported before
 * the sync began (later reports are the next sync's business), found live in the data file.
 */
export function recall(truth: TruthIncident[], stored: Map<number, Stored>, syncStartedAt: number) {
  const due = truth.filter((t) => Date.parse(t.reportedAt) <= syncStartedAt);
  const missing = due.filter((t) => !stored.get(t.cdid) || stored.get(t.cdid)?.removed).map((t) => t.cdid);
  return {
    truth: due.length,
    found: due.length - missing.length,
    recall: due.length === 0 ? 1 : (due.length - missing.length) / due.length,
    missing: missing.slice(0, 10),
  };
}

/**
 * The fair lower bound from the simulator's ground truth: ceil(N / 500), N = incidents served inside
 * the area that occurred after the run's since (the start of the next local day in `zone`) and were
 * reported before the sync began. Blotter's own figure reads report times (the API hides occurred
 * times), so it can only be higher by the few reported after midnight that occurred on the since day.
 */
export function fairTruth(
  sim: Simulator,
  area: Circle,
  key: string,
  sinceDay: string,
  zone: string,
  syncStartedAt: number,
): { n: number; bound: number } {
  const next = new Date(Date.parse(`${sinceDay}T00:00:00Z`) + 86_400_000);
  const local = next.toISOString().slice(0, 10);
  // The local midnight of the next day: the UTC midnight shifted by the zone's offset then.
  const offsetMs =
    Date.parse(new Date(next).toLocaleString('en-US', { timeZone: 'UTC' })) -
    Date.parse(new Date(next).toLocaleString('en-US', { timeZone: zone }));
  const from = Date.parse(`${local}T00:00:00Z`) + offsetMs;
  const n = sim
    .groundTruth({ ...area, key, since: from })
    .filter((t) => Date.parse(t.reportedAt) <= syncStartedAt).length;
  return { n, bound: Math.max(1, Math.ceil(n / 500)) };
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
