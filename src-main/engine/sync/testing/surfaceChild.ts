/**
 * A child process for the v1 kill -9 test: syncs one area of the data file against a simulator
 * whose v1 surface is verified, and SIGKILLs itself when the sync sends its `killAt`-th v1 page
 * request — the pages before it committed, that one in flight.
 * Env: BLOTTER_TEST_DB, BLOTTER_TEST_SIM, BLOTTER_TEST_KEY, BLOTTER_TEST_NOW, BLOTTER_TEST_AREA,
 * BLOTTER_TEST_KILL_AT.
 */
import { createLogger } from '../../log';
import { openDatabase } from '../../store/database';
import { createSyncService } from '../syncService';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const db = openDatabase(env('BLOTTER_TEST_DB'));
const now = Number(env('BLOTTER_TEST_NOW'));
const killAt = Number(env('BLOTTER_TEST_KILL_AT'));
let pages = 0;
const conn = {
  baseUrl: env('BLOTTER_TEST_SIM'),
  key: env('BLOTTER_TEST_KEY'),
  limits: { ratePerMinute: 100_000, windowDays: 30 },
  fetch: (u: string, i: RequestInit) => {
    if (u.includes('/v1/incidents') && ++pages >= killAt) {
      process.stdout.write(`killing at v1 page ${pages}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
    return fetch(u, i);
  },
};
const service = createSyncService({
  db,
  log: createLogger('surface-child'),
  emit: () => undefined,
  connect: async () => conn,
  now: () => now,
  backoff: { baseMs: 20, capMs: 200, maxAttempts: 8 },
});
const area = service.areas.get(Number(env('BLOTTER_TEST_AREA')));
if (!area) throw new Error('no such area');
await service.syncAreas([area], conn);
process.stdout.write('finished without being killed\n');
process.exit(3);
