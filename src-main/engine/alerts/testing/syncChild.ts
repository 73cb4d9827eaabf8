/**
 * A child process for the alerts' kill -9 test: syncs one area of the data file against a
 * simulator and SIGKILLs itself inside the first page commit that raised an alert — after the
 * alert rows were written, before the transaction committed.
 * Env: BLOTTER_TEST_DB, BLOTTER_TEST_SIM, BLOTTER_TEST_KEY, BLOTTER_TEST_NOW, BLOTTER_TEST_AREA.
 */
import { createLogger } from '../../log';
import { openDatabase } from '../../store/database';
import { createSyncService } from '../../sync/syncService';
import { evaluateAlerts, evaluationProbe } from '../evaluate';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const db = openDatabase(env('BLOTTER_TEST_DB'));
const now = Number(env('BLOTTER_TEST_NOW'));
const conn = {
  baseUrl: env('BLOTTER_TEST_SIM'),
  key: env('BLOTTER_TEST_KEY'),
  limits: { ratePerMinute: 100_000, windowDays: 30 },
  fetch: (u: string, i: RequestInit) => fetch(u, i),
};
const service = createSyncService({
  db,
  log: createLogger('alerts-child'),
  emit: () => undefined,
  connect: async () => conn,
  now: () => now,
  backoff: { baseMs: 20, capMs: 200, maxAttempts: 8 },
  // The alerts hear each page inside its commit, as services.ts wires the engine's sync.
  onPageCommitted: evaluateAlerts,
});
evaluationProbe.afterWrite = () => {
  process.stdout.write('killing mid-evaluation\n');
  process.kill(process.pid, 'SIGKILL');
  for (;;) {
    // never return into the transaction
  }
};
const area = service.areas.get(Number(env('BLOTTER_TEST_AREA')));
if (!area) throw new Error('no such area');
await service.syncAreas([area], conn, { depth: 'deep' });
process.stdout.write('finished without an alert\n');
process.exit(3);
