/**
 * PostgreSQL dropping a connection (pg_terminate_backend, as an administrator or a failover does)
 * while Blotter's client is checked out of the pool: in a pull, a fenced write, the ledger and a
 * heartbeat. The process must not crash (a client's unheard 'error' event is an uncaught exception:
 * vitest fails the file), the call fails as "unreachable", the replica keeps serving, and the next
 * call, on a new connection, works and resumes where the last one stopped.
 */
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SecretStore } from '../secrets/secretStore';
import { openDatabase, type Db } from '../store/database';
import { createSettingsRepo } from '../store/settingsRepo';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeDigest, replicaDigest } from './digest';
import { acquireLease, fencedWrite, heartbeat } from './lease';
import { createOfficeLeader } from './leader';
import { createOfficeLimiter, keyHmac } from './limiter';
import { migrateOffice } from './migrate';
import { putOfficeIncidents } from './officeArchive';
import { isUnreachable, OfficeUnreachableError, openOfficePool, type OfficePool } from './officeDb';
import { officeRow } from './officeRows.testing';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { linkOffice, pullReplica } from './replica';
import { createOfficeService } from './service';

let server: TestPostgres;
let admin: pg.Client;
let pool: OfficePool;
let officeId: string;
let tmp: TempDir;
const dbs: Db[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  admin = await server.admin();
  pool = openOfficePool(parseOfficeUrl(server.url), server.password);
  officeId = (await migrateOffice(pool)).officeId;
  tmp = makeTempDir();
}, 60_000);
afterAll(async () => {
  dbs.forEach((d) => d.close());
  await pool?.end();
  await admin?.end();
  server?.stop();
  tmp?.remove();
});

function memorySecrets(): SecretStore {
  const m = new Map<string, string>();
  return {
    get: async (a) => m.get(a) ?? null,
    set: async (a, s) => void m.set(a, s),
    delete: async (a) => m.delete(a),
    probe: async () => ({ available: true }) as Awaited<ReturnType<SecretStore['probe']>>,
  };
}

function folder(name: string): Db {
  const db = openDatabase(path.join(tmp.path, `${name}.sqlite`));
  dbs.push(db);
  return db;
}

/** The pid of Blotter's backend waiting on a lock (it is blocked behind the admin's transaction). */
async function blockedBackend(): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const r = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = 'blotter' AND wait_event_type = 'Lock'",
    );
    if (r.rows.length === 1) return r.rows[0]!.pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no Blotter backend waited on the lock');
}

/**
 * Runs `call` while the admin holds `lock` in a transaction; once `call`'s backend waits on it,
 * that backend is terminated and the admin's transaction ends. Returns how `call` ended.
 */
async function terminatedWhileBlocked<T>(lock: string, params: unknown[], call: () => Promise<T>) {
  await admin.query('BEGIN');
  await admin.query(lock, params);
  const settled = call().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const pid = await blockedBackend();
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await admin.query('COMMIT');
  return settled;
}

test('a pull whose connection is terminated fails as unreachable; the replica keeps serving and the next pull resumes', async () => {
  const db = folder('pull');
  const office = createOfficeService({
    db,
    settings: createSettingsRepo(db),
    secrets: memorySecrets(),
    emit: () => undefined,
  });
  await office.join(server.url, server.password, false);
  await putOfficeIncidents(
    pool,
    Array.from({ length: 12_000 }, (_, i) => officeRow(i + 1)),
  );
  await pool.query('DELETE FROM incidents WHERE cdid <= 10');

  // The pull applies every incident page, then its snapshot's client is cut off reading deletions.
  const pulled = await terminatedWhileBlocked('LOCK TABLE deletions IN ACCESS EXCLUSIVE MODE', [], () =>
    office.pull(),
  );
  expect(pulled.ok).toBe(false);
  const error = (pulled as { error: unknown }).error;
  expect(error).toBeInstanceOf(OfficeUnreachableError);
  expect((error as Error).message).toMatch(/cannot be reached/);

  // The replica keeps serving what its committed pages brought; nothing was applied twice.
  const count = () => db.prepare('SELECT count(*) FROM incidents').pluck().get();
  expect(count()).toBe(11_990);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(count()).toBe(11_990);

  // The next pull, on a new connection, resumes from the cursors: only the deletions remain.
  expect(await office.pull()).toEqual({ areas: 0, coverage: 0, incidents: 0, deletions: 10 });
  expect(replicaDigest(db)).toEqual(await officeDigest(pool));
  expect((await office.status()).reachable).toBe(true);
  await office.close();
}, 120_000);

test('a fenced write whose connection is terminated mid-transaction fails as unreachable; the next one commits', async () => {
  const lease = (await acquireLease(pool, 'drop:fenced', 'desk-a'))!;
  const cut = fencedWrite(pool, lease, async (c) => {
    const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const ended = new Promise((resolve) => c.once('end', resolve));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await ended; // the checked-out client has heard its connection end
    await c.query(
      "INSERT INTO leader_lease (name, holder, token, expires_at, acquired_at) VALUES ('drop:x', 'x', 1, now(), now())",
    );
  });
  const e = await cut.then(
    () => null,
    (error: unknown) => error,
  );
  expect(isUnreachable(e)).toBe(true);
  expect((await admin.query("SELECT 1 FROM leader_lease WHERE name = 'drop:x'")).rowCount).toBe(0);

  await fencedWrite(pool, lease, (c) =>
    c.query(
      "INSERT INTO leader_lease (name, holder, token, expires_at, acquired_at) VALUES ('drop:x', 'x', 1, now(), now())",
    ),
  );
  expect((await admin.query("SELECT 1 FROM leader_lease WHERE name = 'drop:x'")).rowCount).toBe(1);
}, 60_000);

test("the ledger's admission whose connection is terminated while it waits for the key's lock fails as unreachable; the next is admitted", async () => {
  const hmac = keyHmac('key-drop', officeId);
  const limiter = createOfficeLimiter(pool, hmac, 'desk-a');
  const admitted = await terminatedWhileBlocked(
    'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    [hmac],
    () => limiter.admit(60),
  );
  expect(admitted.ok).toBe(false);
  expect(isUnreachable((admitted as { error: unknown }).error)).toBe(true);
  expect(await limiter.admit(60)).toHaveProperty('id');
}, 60_000);

test("a heartbeat whose connection is terminated fails as unreachable, and the leader's lease is not lost for it", async () => {
  const lease = (await acquireLease(pool, 'drop:beat', 'desk-a'))!;
  const beat = await terminatedWhileBlocked(
    'SELECT 1 FROM leader_lease WHERE name = $1 FOR UPDATE',
    [lease.name],
    () => heartbeat(pool, lease),
  );
  expect(beat.ok).toBe(false);
  expect(isUnreachable((beat as { error: unknown }).error)).toBe(true);
  expect(await heartbeat(pool, lease)).toBe(true);

  // The leader's own heartbeat (every third of the TTL): one dropped connection is not a lost lease.
  const db = folder('leader');
  linkOffice(db, server.url, officeId, Date.now());
  const leader = createOfficeLeader({
    pool: async () => pool,
    db,
    officeId,
    holder: 'desk-b',
    pull: () => pullReplica(pool, db, Date.now),
    ttlMs: 6_000,
  });
  const led = await leader.lead(77, 'key-drop', Date.now());
  expect(led).toHaveProperty('leading');
  const leading = (led as { leading: { lost: AbortSignal; release(): Promise<void> } }).leading;
  const expiry = async () =>
    (
      await admin.query<{ at: number }>(
        "SELECT (extract(epoch FROM expires_at) * 1000)::float8 AS at FROM leader_lease WHERE name = 'sync:area:77' AND holder = 'desk-b'",
      )
    ).rows[0]?.at ?? 0;
  const first = await expiry();
  // Its next beat (after 2 s) waits on the row and is cut off there.
  const held = await terminatedWhileBlocked(
    'SELECT 1 FROM leader_lease WHERE name = $1 FOR UPDATE',
    ['sync:area:77'],
    async () => undefined,
  );
  expect(held.ok).toBe(true);
  // The beat after it renews the lease on a new connection; the run was never told it lost it.
  await new Promise((resolve) => setTimeout(resolve, 2_600));
  expect(leading.lost.aborted).toBe(false);
  expect(await expiry()).toBeGreaterThan(first);
  await leading.release();
}, 60_000);
