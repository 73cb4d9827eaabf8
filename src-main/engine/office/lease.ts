/**
 * The sync leader, elected with a lease row (`leader_lease`): one holder per name, a fencing
 * token one higher on every acquisition, an expiry judged by the server's clock
 * (clock_timestamp(), not now(): now() is frozen at the start of a transaction). The holder
 * renews it with a heartbeat well inside the TTL; a desktop that closes or loses the network
 * stops renewing and another acquires within the TTL (30 s by default: failover within a minute).
 *
 * Every write of a leader goes through `fencedWrite`: in the same transaction as the write, the
 * lease row is read FOR SHARE and must still be the holder's, with its token and unexpired — so a
 * leader that was paused or cut off cannot commit after losing the lease (StaleLeaderError), and
 * an acquisition waits for a fenced write in flight to commit before taking the lease over.
 */
import type pg from 'pg';
import { inTransaction, type OfficePool } from './officeDb';

export const LEASE_TTL_MS = 30_000;

export class StaleLeaderError extends Error {
  override name = 'StaleLeaderError';
}

export type Lease = { name: string; holder: string; token: number };

/** Takes the lease when it is free or expired (token + 1); null when another holds it. */
export async function acquireLease(
  pool: OfficePool,
  name: string,
  holder: string,
  ttlMs = LEASE_TTL_MS,
): Promise<Lease | null> {
  const r = await pool.query<{ token: number }>(
    `INSERT INTO leader_lease AS l (name, holder, token, expires_at, acquired_at)
       VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond', clock_timestamp())
     ON CONFLICT (name) DO UPDATE
       SET holder = EXCLUDED.holder, token = l.token + 1, expires_at = EXCLUDED.expires_at,
           acquired_at = EXCLUDED.acquired_at
       WHERE l.expires_at <= clock_timestamp()
     RETURNING token`,
    [name, holder, ttlMs],
  );
  return r.rows[0] ? { name, holder, token: r.rows[0].token } : null;
}

/** Extends the lease if it is still this holder's with this token; false: it was lost. */
export async function heartbeat(pool: OfficePool, lease: Lease, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const r = await pool.query(
    `UPDATE leader_lease SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
      WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > clock_timestamp()`,
    [lease.name, lease.holder, lease.token, ttlMs],
  );
  return r.rowCount === 1;
}

/** Gives the lease up now (the next acquirer need not wait for the expiry). */
export async function releaseLease(pool: OfficePool, lease: Lease): Promise<void> {
  await pool.query(
    `UPDATE leader_lease SET expires_at = clock_timestamp() WHERE name = $1 AND holder = $2 AND token = $3`,
    [lease.name, lease.holder, lease.token],
  );
}

/** Who holds a lease now, by the server's clock; null when nobody does. */
export async function currentLeader(
  pool: OfficePool,
  name: string,
): Promise<{ holder: string; token: number; expiresInMs: number } | null> {
  const r = await pool.query<{ holder: string; token: number; ms: number }>(
    `SELECT holder, token, (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS ms
       FROM leader_lease WHERE name = $1 AND expires_at > clock_timestamp()`,
    [name],
  );
  const row = r.rows[0];
  return row ? { holder: row.holder, token: row.token, expiresInMs: row.ms } : null;
}

/** Checks the fencing token inside the caller's transaction (row locked FOR SHARE until commit). */
export async function checkFence(c: pg.ClientBase, lease: Lease): Promise<void> {
  const r = await c.query(
    `SELECT 1 FROM leader_lease
      WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > clock_timestamp() FOR SHARE`,
    [lease.name, lease.holder, lease.token],
  );
  if (r.rowCount !== 1)
    throw new StaleLeaderError(
      `The lease "${lease.name}" (token ${lease.token}) is no longer ${lease.holder}'s: the write was refused.`,
    );
}

/** A leader's write: the fence check and `fn` in one transaction, committed only while the lease holds. */
export async function fencedWrite<T>(
  pool: OfficePool,
  lease: Lease,
  fn: (c: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(pool, async (c) => {
    await checkFence(c, lease);
    return fn(c);
  });
}
