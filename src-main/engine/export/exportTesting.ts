/**
 * Test helpers for exports, imports and the report: a real engine (in this thread, memory secrets)
 * over a fresh data folder, incidents written through the sync's own writer, and waiting for the
 * engine's events. Used by *.test.ts files only.
 */
import type { EngineEvent } from '../../../src-shared/contract';
import { logFileOf } from '../dataDir';
import { createEngine, type Engine } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import type { Db } from '../store/database';
import { createIncidentWriter } from '../sync/incidentWriter';
import { makeTempDir, type TempDir } from '../testing/tempDir';

export type ApiRow = {
  cdid: number;
  type: string;
  address: string;
  lat: number;
  lon: number;
  link: string;
  date: string;
};

export const apiRow = (cdid: number, over: Partial<ApiRow> = {}): ApiRow => ({
  cdid,
  type: 'Theft',
  address: `${cdid} Block of N Synthetic Oak St`,
  lat: 41.88,
  lon: -87.63,
  link: `https://crime.example.test/incident/${cdid}`,
  date: '05/10/25 01:30 PM',
  ...over,
});

/** Rows whose text tests quoting and neutralising: formulas, quotes, commas, line breaks, Unicode. */
export const TRICKY: ApiRow[] = [
  apiRow(1, { address: '=HYPERLINK("http://evil.example")', type: 'Assault' }),
  apiRow(2, { address: 'Main St, "Apt 4"\r\nrear', date: '05/12/25 09:00 AM' }),
  apiRow(3, { address: '+1 Block', lat: 41.95, lon: -87.7 }),
  apiRow(4, { address: '@home', date: '05/20/25 11:59 PM' }),
  apiRow(5, { address: '-minus', type: 'Arrest' }),
  apiRow(6, { address: '\tTabbed' }),
  apiRow(7, { address: '\rReturn' }),
  apiRow(8, { address: 'Ünïcödé Straße 北京 🚓' }),
];

export function writeIncidents(db: Db, rows: readonly ApiRow[], now = 1_750_000_000_000): void {
  const writer = createIncidentWriter(db);
  // The engine's query service sees writes through its connection (TEMP triggers).
  db.transaction(() => writer.upsert(rows, now, () => true))();
}

export type TestEngine = {
  engine: Engine;
  db: Db;
  dir: TempDir;
  events: EngineEvent[];
  /** The first event (already seen or still to come) that matches. */
  waitFor<T extends EngineEvent>(match: (e: EngineEvent) => e is T, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
};

export function openTestEngine(): TestEngine {
  const dir = makeTempDir();
  configureLogging({ file: logFileOf(dir.path), stderr: false });
  const events: EngineEvent[] = [];
  const waiters = new Set<() => void>();
  const engine = createEngine({
    dataDir: dir.path,
    secrets: createMemorySecretStore(),
    host: 'cli',
    version: '9.8.7',
    emit: (event) => {
      events.push(event);
      for (const w of waiters) w();
    },
  });
  return {
    engine,
    db: engine.context.db,
    dir,
    events,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = events.find(match);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('timed out waiting for an engine event'));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await engine.close();
      configureLogging({ file: null, stderr: true });
      dir.remove();
    },
  };
}

type ExportEvent = Extract<EngineEvent, { type: 'exportProgress' }>;

/** The final event of an export job (done, failed or cancelled). */
export const exportFinished =
  (jobId: string) =>
  (e: EngineEvent): e is ExportEvent =>
    e.type === 'exportProgress' && e.jobId === jobId && ['done', 'failed', 'cancelled'].includes(e.state);
