/**
 * For sync tests: a simulator on loopback (manual clock), a fresh data file, a sync service whose
 * clock is the simulator's, and helpers to compare the local file with the ground truth.
 */
import { contains, type Shape } from '../../../../src-shared/geo';
import { createLogger } from '../../log';
import { openDatabase, type Db } from '../../store/database';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import type { SyncProgress } from '../progress';
import {
  createSyncService,
  type Connection,
  type SyncService,
  type SyncServiceOptions,
} from '../syncService';

export const TEST_KEY = 'sync-test-key-0001';
export const NOW = '2025-06-01T17:00:00Z';
/** A key registered for another office's IP: every request from here is a 403. */
export const OTHER_IP_KEY = 'other-office-key-02';
const RATE = 100_000;
const WINDOW_DAYS = 30;

/**
 * What the harness needs of a simulator. (Only test files may import src-sim; they start it with
 * `simOptions()` and hand it over.)
 */
export type SimLike = {
  url: string;
  clock: { nowMs(): number };
  groundTruth(q: {
    lat: number;
    lon: number;
    radiusMi: number;
    key?: string;
    since?: number;
  }): { cdid: number }[];
  close(): Promise<void>;
};

/** Simulator options for sync tests: a manual clock, a dense enough archive, a test key and a 403 key. */
export function simOptions(extra: Record<string, unknown> = {}) {
  return {
    seed: 7,
    scale: 60_000,
    spanDays: 45,
    now: NOW,
    clock: 'manual' as const,
    keys: [
      {
        key: TEST_KEY,
        plan: 'enterprise' as const,
        ips: ['127.0.0.1', '::1'],
        ratePerMinute: RATE,
        windowDays: WINDOW_DAYS,
      },
      { key: OTHER_IP_KEY, plan: 'developer' as const, ips: ['203.0.113.7'] },
    ],
    ...extra,
  };
}

export type Harness<S extends SimLike> = {
  sim: S;
  db: Db;
  dir: TempDir;
  service: SyncService;
  conn: Connection;
  events: SyncProgress[];
  reopen(): void;
  close(): Promise<void>;
};

/** `onPageCommitted`: the page hook the engine wires to its alerts (tests of the alerts pass it). */
export async function startHarness<S extends SimLike>(
  sim: S,
  wiring: Pick<SyncServiceOptions, 'onPageCommitted'> = {},
): Promise<Harness<S>> {
  const rate = RATE;
  const windowDays = WINDOW_DAYS;
  const dir = makeTempDir('blotter-sync-');
  const events: SyncProgress[] = [];
  const conn: Connection = {
    baseUrl: sim.url,
    key: TEST_KEY,
    limits: { ratePerMinute: rate, windowDays },
    fetch: (u, i) => fetch(u, i),
  };
  const h: Harness<S> = {
    sim,
    dir,
    events,
    conn,
    db: undefined as unknown as Db,
    service: undefined as unknown as SyncService,
    reopen() {
      h.db?.close();
      h.db = openDatabase(`${dir.path}/blotter.sqlite`);
      h.service = createSyncService({
        db: h.db,
        log: createLogger('sync-test'),
        emit: (e) => events.push(e),
        connect: async () => conn,
        now: () => sim.clock.nowMs(),
        backoff: { baseMs: 20, capMs: 200, maxAttempts: 8 },
        ...wiring,
      });
    },
    async close() {
      await h.service.close();
      h.db.close();
      await sim.close();
      dir.remove();
    },
  };
  h.reopen();
  return h;
}

/** cdids stored (not removed) inside the shape. */
export function storedIn(db: Db, shape: Shape): Set<number> {
  const rows = db
    .prepare<[], { cdid: number; lat: number; lon: number }>(
      'SELECT cdid, lat, lon FROM incidents WHERE removed_at IS NULL',
    )
    .all();
  return new Set(rows.filter((r) => contains(shape, r.lat, r.lon)).map((r) => r.cdid));
}

export function truthIn(sim: SimLike, shape: Extract<Shape, { kind: 'circle' }>): Set<number> {
  return new Set(
    sim
      .groundTruth({ lat: shape.lat, lon: shape.lon, radiusMi: shape.radiusMi, key: TEST_KEY })
      .map((t) => t.cdid),
  );
}

export function missing(truth: Set<number>, got: Set<number>): number[] {
  return [...truth].filter((c) => !got.has(c));
}
