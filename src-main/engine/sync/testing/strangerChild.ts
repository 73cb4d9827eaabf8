/**
 * A child process for the stranger server's kill -9 test (strangerServer.test.ts): syncs one area of
 * the data file against the server at BLOTTER_TEST_SERVER, and SIGKILLs itself when it sends its
 * BLOTTER_TEST_KILL_AT-th search — the pages before it committed (or in flight), that one unanswered.
 * Env: BLOTTER_TEST_DB, BLOTTER_TEST_SERVER, BLOTTER_TEST_KEY, BLOTTER_TEST_RATE, BLOTTER_TEST_AREA,
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
const killAt = Number(env('BLOTTER_TEST_KILL_AT'));
let searches = 0;
const conn = {
  baseUrl: env('BLOTTER_TEST_SERVER'),
  key: env('BLOTTER_TEST_KEY'),
  limits: { ratePerMinute: Number(env('BLOTTER_TEST_RATE')), windowDays: 90 },
  fetch: (u: string, i: RequestInit) => {
    if (u.includes('/crimes.json') && ++searches >= killAt) {
      process.stdout.write(`killing at search ${searches}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
    return fetch(u, i);
  },
};
const service = createSyncService({
  db,
  log: createLogger('stranger-child'),
  emit: () => undefined,
  connect: async () => conn,
  backoff: { baseMs: 50, capMs: 1_000, maxAttempts: 8 },
});
const area = service.areas.get(Number(env('BLOTTER_TEST_AREA')));
if (!area) throw new Error('no such area');
await service.syncAreas([area], conn);
process.stdout.write('finished without being killed\n');
process.exit(3);
