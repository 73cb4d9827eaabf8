/**
 * Test helpers for exports, imports and the report: a real engine (in this thread, memory secrets)
 * over a fresh data folder, incidents written through the sync's own writer, and waiting for the
 * engine's events. Used by *.test.ts files only.
 */
import type { EngineEvent } from '../../../src-shared/contract';
import type { Db } from '../store/database';
import { createIncidentWriter } from '../sync/incidentWriter';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import type { TempDir } from '../testing/tempDir';

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
  // The engine's query service sees writes through its connection (TEMP triggers). IMMEDIATE, as the
  // sync's own page writes: a read-then-write transaction would not wait for another connection's lock.
  db.transaction(() => writer.upsert(rows, now, () => true)).immediate();
}

/** The engine fixture (testing/engineFixture.ts) as the CLI host, with its database and folder. */
export type TestEngine = EngineFixture & { db: Db; dir: TempDir };

export function openTestEngine(): TestEngine {
  const fx = openEngine({ host: 'cli', version: '9.8.7' });
  return { ...fx, db: fx.engine.context.db, dir: fx.tmp };
}

type ExportEvent = Extract<EngineEvent, { type: 'exportProgress' }>;

/** The final event of an export job (done, failed or cancelled). */
export const exportFinished =
  (jobId: string) =>
  (e: EngineEvent): e is ExportEvent =>
    e.type === 'exportProgress' && e.jobId === jobId && ['done', 'failed', 'cancelled'].includes(e.state);
