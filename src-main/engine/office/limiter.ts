/**
 * One rate budget per key for every desktop of the office: before an API request is sent, `admit`
 * counts the key's requests the API may still count and, when fewer than the plan's rate, writes
 * the request's ledger row — inside one transaction holding a transaction-level advisory lock
 * per key (hashed from the key's HMAC), so two desktops cannot both take the last slot. Times are
 * the server's (clock_timestamp() after the lock: a transaction that waited must not date its
 * request in the past). The ledger is keyed by `keyHmac(apiKey, officeId)`, an HMAC-SHA256 keyed
 * by the API key itself: PostgreSQL never sees the key, and the HMAC cannot be tested against a
 * guessed key without also knowing the office id (nor recognised across offices).
 *
 * What counts, as in the local ledger (sync/rateLedger.ts): a request in flight (not ended,
 * admitted less than STALE_MS ago), or ended less than a minute (plus a margin) ago.
 */
import { createHmac } from 'node:crypto';
import { inTransaction, type OfficePool } from './officeDb';

export const WINDOW_MS = 60_000;
const MARGIN_MS = 100;
const STALE_MS = 120_000;

export type OfficeAdmission = { id: number } | { retryInMs: number };

export function keyHmac(apiKey: string, officeId: string): string {
  return createHmac('sha256', apiKey).update(`blotter-office-ledger:${officeId}`).digest('hex');
}

export function createOfficeLimiter(pool: OfficePool, hmac: string, holder: string, windowMs = WINDOW_MS) {
  return {
    /** A slot for one request now, or how long to wait before asking again. */
    admit(rate: number): Promise<OfficeAdmission> {
      return inTransaction(pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [hmac]);
        const r = await c.query<{ used: number; free_in: number | null }>(
          `WITH now AS (SELECT clock_timestamp() AS t),
                live AS (
                  SELECT CASE WHEN ended_at IS NULL THEN at + $2 * interval '1 millisecond'
                              ELSE ended_at + $3 * interval '1 millisecond' END AS frees_at
                    FROM request_ledger, now
                   WHERE key_hmac = $1
                     AND ((ended_at IS NULL AND at > now.t - $2 * interval '1 millisecond')
                          OR ended_at > now.t - $3 * interval '1 millisecond'))
           SELECT count(*)::int AS used,
                  (extract(epoch FROM min(frees_at) - (SELECT t FROM now)) * 1000)::float8 AS free_in
             FROM live`,
          [hmac, STALE_MS, windowMs + MARGIN_MS],
        );
        // The key's rows older than any window: gone (an index range, usually one row).
        await c.query(
          "DELETE FROM request_ledger WHERE key_hmac = $1 AND at < clock_timestamp() - interval '10 minutes'",
          [hmac],
        );
        const { used, free_in } = r.rows[0]!;
        if (used >= rate) return { retryInMs: Math.max(1, Math.ceil(free_in ?? windowMs)) };
        const ins = await c.query<{ id: number }>(
          'INSERT INTO request_ledger (key_hmac, holder, at) VALUES ($1, $2, clock_timestamp()) RETURNING id',
          [hmac, holder],
        );
        return { id: ins.rows[0]!.id };
      });
    },
    /** The request ended (its answer or failure): it counts for one more window from now. */
    async end(id: number, status: number | null): Promise<void> {
      await pool.query('UPDATE request_ledger SET ended_at = clock_timestamp(), status = $2 WHERE id = $1', [
        id,
        status,
      ]);
    },
  };
}

export type OfficeLimiter = ReturnType<typeof createOfficeLimiter>;
