/**
 * Runs the engine's sync (the sync service, as the app and CLI build it) against a stranger server
 * (strangerServer.ts) and measures it as issue 18 does: every request the server answered, the fair
 * lower bound ceil(N / 500) from the server's own ground truth (N = incidents inside the areas,
 * served in the window, that occurred after the run's `since`), recall against that truth, and the
 * 429s the rate limit itself caused (violations; the server's random 429s are not).
 */
import { createLogger } from '../../log';
import { openDatabase, type Db } from '../../store/database';
import type { SyncProgress } from '../progress';
import type { RunSummary } from '../runner';
import { createSyncService, type Connection, type SyncService } from '../syncService';
import { groundMiles, type StrangerServer } from './strangerServer';

export type Circle = { lat: number; lon: number; radiusMi: number };

export type StrangerFigures = {
  state: string;
  error: string | null;
  incomplete: string[];
  requests: number;
  /** Incidents inside the areas that occurred after the runs' since, served now (the server's truth). */
  n: number;
  fairLowerBound: number;
  /** Blotter's own figure (the run summary's). */
  blotterFairLowerBound: number | null;
  ratio: number;
  recall: number;
  missing: number[];
  violations: number;
  injected429: number;
  injected503: number;
  sinceDays: string[];
};

export type StrangerClient = {
  db: Db;
  service: SyncService;
  conn: Connection;
  events: SyncProgress[];
  reopen(): void;
  close(): Promise<void>;
};

/** A sync service on its own data file at `dbPath`, connected to the server with the plan's rate. */
export function strangerClient(server: StrangerServer, dbPath: string): StrangerClient {
  const events: SyncProgress[] = [];
  const conn: Connection = {
    baseUrl: server.url,
    key: server.key,
    limits: { ratePerMinute: server.options.ratePerMinute, windowDays: server.options.windowDays },
    fetch: (u, i) => fetch(u, i),
  };
  const c: StrangerClient = {
    db: undefined as unknown as Db,
    service: undefined as unknown as SyncService,
    conn,
    events,
    reopen() {
      c.db?.close();
      c.db = openDatabase(dbPath);
      c.service = createSyncService({
        db: c.db,
        log: createLogger('stranger-sync'),
        emit: (e) => events.push(e),
        connect: async () => conn,
        backoff: { baseMs: 50, capMs: 1_000, maxAttempts: 8 },
      });
    },
    async close() {
      await c.service.close();
      c.db.close();
    },
  };
  c.reopen();
  return c;
}

/** Creates the areas (or finds them by name) and syncs them once; the figures of that sync. */
export async function syncOnce(
  server: StrangerServer,
  client: StrangerClient,
  areas: { name: string; shape: Circle }[],
): Promise<{ figures: StrangerFigures; summaries: RunSummary[] }> {
  const before = server.stats();
  const startedAt = Date.now();
  const records = areas.map(
    (a) =>
      client.service.areas.list().find((x) => x.name === a.name) ??
      client.service.areas.create({ name: a.name, shape: { kind: 'circle', ...a.shape } }, startedAt),
  );
  const summaries = await client.service.syncAreas(records, client.conn);
  const after = server.stats();
  const sinceDays = summaries.map((s) => sinceOf(client.db, s.runId));
  return {
    figures: measure(
      server,
      client.db,
      areas.map((a) => a.shape),
      sinceDays,
      startedAt,
      before,
      after,
      summaries,
    ),
    summaries,
  };
}

/** The run's since day (the last run of an area that moved to v1 is the one that counts). */
export function sinceOf(db: Db, runId: number): string {
  const row = db
    .prepare<[number], { since_day: string }>('SELECT since_day FROM sync_runs WHERE id = ?')
    .get(runId);
  return row?.since_day ?? '9999-12-31';
}

/** cdids stored and not removed. */
export function storedCdids(db: Db): Set<number> {
  return new Set(
    db
      .prepare<[], { cdid: number }>('SELECT cdid FROM incidents WHERE removed_at IS NULL')
      .all()
      .map((r) => r.cdid),
  );
}

/**
 * What the areas should hold after a sync begun at `startedAt` with these since days: served
 * now and at the start (the window moves while a sync runs), reported before the start, inside an
 * area, occurred after its run's since.
 */
export function dueIncidents(
  server: StrangerServer,
  areas: Circle[],
  sinceDays: string[],
  startedAt: number,
) {
  const now = Date.now();
  const due = new Map<number, { cdid: number }>();
  areas.forEach((a, k) => {
    const since = sinceDays[k] ?? '9999-12-31';
    for (const i of server.incidents) {
      if (i.reportedMs > startedAt || !server.inWindow(i, startedAt) || !server.inWindow(i, now)) continue;
      if (i.occurredDay <= since || groundMiles(a.lat, a.lon, i.lat, i.lon) > a.radiusMi) continue;
      due.set(i.cdid, i);
    }
  });
  return [...due.keys()];
}

function measure(
  server: StrangerServer,
  db: Db,
  areas: Circle[],
  sinceDays: string[],
  startedAt: number,
  before: ReturnType<StrangerServer['stats']>,
  after: ReturnType<StrangerServer['stats']>,
  summaries: RunSummary[],
): StrangerFigures {
  const due = dueIncidents(server, areas, sinceDays, startedAt);
  const stored = storedCdids(db);
  const missing = due.filter((c) => !stored.has(c));
  const requests = after.total - before.total;
  const fair = Math.max(1, Math.ceil(due.length / 500));
  const failed = summaries.find((s) => s.state !== 'done');
  return {
    state: failed?.state ?? 'done',
    error: failed?.error?.message ?? null,
    incomplete: summaries.flatMap((s) => s.incomplete),
    requests,
    n: due.length,
    fairLowerBound: fair,
    blotterFairLowerBound: summaries.length === 1 ? (summaries[0]?.fairLowerBound ?? null) : null,
    ratio: Math.round((requests / fair) * 100) / 100,
    recall: due.length === 0 ? 1 : (due.length - missing.length) / due.length,
    missing: missing.slice(0, 10),
    violations: after.violations - before.violations,
    injected429: after.injected429 - before.injected429,
    injected503: after.injected503 - before.injected503,
    sinceDays,
  };
}
