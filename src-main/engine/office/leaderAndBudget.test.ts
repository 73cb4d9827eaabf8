import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acquireLease, currentLeader, fencedWrite, heartbeat, StaleLeaderError, type Lease } from './lease';
import { createOfficeLimiter, keyHmac } from './limiter';
import { migrateOffice, OfficeSchemaTooNewError } from './migrate';
import { officeMigrations } from './migrations';
import { openOfficePool, type OfficePool } from './officeDb';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';

let server: TestPostgres;
const pools: OfficePool[] = [];
const pool = () => {
  const p = openOfficePool(parseOfficeUrl(server.url), server.password, 8);
  pools.push(p);
  return p;
};

beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  server?.stop();
});

/** Until nobody holds `name` by the server's clock: a lease's end, however long the queries took. */
async function expired(p: OfficePool, name: string): Promise<void> {
  while (await currentLeader(p, name)) await new Promise((r) => setTimeout(r, 25));
}

// What must happen while a lease holds gets 3 s (a loaded 2-core machine can take hundreds of ms a
// query); what must happen after its end waits for the end itself, not for a guessed time.
const HOLDS_MS = 3_000;

describe('office schema', () => {
  test('five desktops joining at once migrate it once, to the app’s version, with PostGIS shapes', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => migrateOffice(pool())));
    expect(results.map((r) => r.version)).toEqual(Array(5).fill(officeMigrations.length));
    expect(results.reduce((n, r) => n + r.applied, 0)).toBe(officeMigrations.length);
    expect(new Set(results.map((r) => r.officeId)).size).toBe(1);

    const p = pool();
    await p.query(
      `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
       VALUES ('c', 'circle', 40, -75, 1, 39.98, -75.02, 40.02, -74.98, 0)`,
    );
    const inside = await p.query(
      `SELECT ST_Contains(shape, ST_SetSRID(ST_MakePoint(-75.005, 40.005), 4326)) AS near,
              ST_Contains(shape, ST_SetSRID(ST_MakePoint(-75.05, 40.05), 4326)) AS far FROM areas`,
    );
    expect(inside.rows[0]).toEqual({ near: true, far: false });
  }, 60_000);

  test('a schema newer than the app is refused', async () => {
    const p = pool();
    await p.query('UPDATE office_schema SET version = version + 1');
    await expect(migrateOffice(p)).rejects.toBeInstanceOf(OfficeSchemaTooNewError);
    await p.query('UPDATE office_schema SET version = version - 1');
  });
});

describe('sync leader lease', () => {
  test('two desktops race for the lease: exactly one wins; the other takes over after expiry with a higher token', async () => {
    const [a, b] = [pool(), pool()];
    const got = await Promise.all([
      acquireLease(a, 'area:1', 'desk-a', HOLDS_MS),
      acquireLease(b, 'area:1', 'desk-b', HOLDS_MS),
    ]);
    const winners = got.filter((l) => l !== null);
    expect(winners).toHaveLength(1);
    const first = winners[0]!;
    expect((await currentLeader(a, 'area:1'))?.holder).toBe(first.holder);
    expect(await heartbeat(a, first, HOLDS_MS)).toBe(true);

    const other = first.holder === 'desk-a' ? 'desk-b' : 'desk-a';
    expect(await acquireLease(b, 'area:1', other, HOLDS_MS)).toBeNull();
    await expired(b, 'area:1'); // the winner stops heartbeating (paused, cut off)
    const second = await acquireLease(b, 'area:1', other, 10_000);
    expect(second?.token).toBe(first.token + 1);
    expect(await heartbeat(a, first, HOLDS_MS)).toBe(false);
  });

  test('a stale fencing token’s write is refused; the current leader’s commits', async () => {
    const p = pool();
    await p.query('CREATE TABLE IF NOT EXISTS job_state (k text PRIMARY KEY, v text)');
    const old = (await acquireLease(p, 'area:2', 'desk-a', 300))!;
    await expired(p, 'area:2');
    const now = (await acquireLease(p, 'area:2', 'desk-b', 10_000))!;
    await expect(
      fencedWrite(p, old, (c) => c.query("INSERT INTO job_state VALUES ('x', 'from the paused leader')")),
    ).rejects.toBeInstanceOf(StaleLeaderError);
    await fencedWrite(p, now, (c) => c.query("INSERT INTO job_state VALUES ('x', 'from the leader')"));
    expect((await p.query('SELECT v FROM job_state')).rows).toEqual([{ v: 'from the leader' }]);
  });

  test('a takeover waits for the write in flight to commit; the old leader’s next write is refused', async () => {
    const [p, q] = [pool(), pool()];
    const old = (await acquireLease(p, 'area:3', 'desk-a', HOLDS_MS))!;
    const order: string[] = [];
    let taken: Promise<Lease | null> | undefined;
    const write = fencedWrite(p, old, async (c) => {
      await c.query("INSERT INTO job_state VALUES ('y', 'page 1')");
      await expired(q, 'area:3'); // paused mid-transaction, past the lease's expiry
      // Another desktop takes over now; its acquisition must wait for this write to commit.
      taken = acquireLease(q, 'area:3', 'desk-b', 10_000).then((l) => {
        order.push('lease taken');
        return l;
      });
      await new Promise((r) => setTimeout(r, 300)); // time for the takeover to run (and wait)
      order.push('write committed');
    });
    await write;
    const next = await taken;
    expect(order).toEqual(['write committed', 'lease taken']);
    expect(next?.token).toBe(old.token + 1);
    await expect(
      fencedWrite(p, old, (c) => c.query("UPDATE job_state SET v = 'page 2' WHERE k = 'y'")),
    ).rejects.toBeInstanceOf(StaleLeaderError);
    expect((await p.query("SELECT v FROM job_state WHERE k = 'y'")).rows).toEqual([{ v: 'page 1' }]);
  });
});

describe('one budget per key', () => {
  test('the ledger holds an HMAC of the key, never the key', async () => {
    const p = pool();
    const key = 'secret-api-key-123';
    const limiter = createOfficeLimiter(p, keyHmac(key, 'office-1'), 'desk-a');
    const a = await limiter.admit(60);
    expect('id' in a).toBe(true);
    const dump = JSON.stringify((await p.query('SELECT * FROM request_ledger')).rows);
    expect(dump).not.toContain(key);
    expect(dump).toContain(keyHmac(key, 'office-1'));
  });

  test('5 concurrent admitters never exceed N requests in any window, by the server’s clock', async () => {
    const N = 4;
    const windowMs = 1_000;
    const hmac = keyHmac('shared-key', 'office-race');
    // Until several windows are filled and every desk got in at least once — not for a fixed time:
    // on a loaded machine connecting five desks alone can take a second or more.
    const admitted = new Map<number, number>();
    const enough = () => admitted.size === 5 && [...admitted.values()].reduce((a, b) => a + b, 0) >= 3 * N;
    const desk = async (i: number) => {
      const limiter = createOfficeLimiter(pool(), hmac, `desk-${i}`, windowMs);
      while (!enough()) {
        const a = await limiter.admit(N);
        if ('id' in a) {
          admitted.set(i, (admitted.get(i) ?? 0) + 1);
          await limiter.end(a.id, 200);
        } else await new Promise((r) => setTimeout(r, Math.min(a.retryInMs, 50)));
      }
    };
    await Promise.all([0, 1, 2, 3, 4].map(desk));
    const p = pool();
    const ats = (
      await p.query<{ ms: number }>(
        'SELECT (extract(epoch FROM at) * 1000)::float8 AS ms FROM request_ledger WHERE key_hmac = $1 ORDER BY at',
        [hmac],
      )
    ).rows.map((r) => r.ms);
    // Enough requests to have filled several windows, and never more than N in any window.
    expect(ats.length).toBeGreaterThanOrEqual(3 * N);
    for (let i = 0; i + N < ats.length; i++) expect(ats[i + N]! - ats[i]!).toBeGreaterThanOrEqual(windowMs);
    const holders = (await p.query('SELECT DISTINCT holder FROM request_ledger WHERE key_hmac = $1', [hmac]))
      .rowCount;
    expect(holders).toBe(5);
  }, 20_000);
});
