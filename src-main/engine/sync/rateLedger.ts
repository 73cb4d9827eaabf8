/**
 * One rate budget per key for every process on this data folder (the app, CLI syncs), kept in the
 * request log. Before a request is sent, `admit` counts the key's requests the server may still
 * count — in flight (not ended, sent less than STALE_MS ago) or ended less than a minute ago —
 * and, when fewer than the rate, writes the request's log row, all inside one BEGIN IMMEDIATE
 * transaction: two processes cannot both take the last slot. `end` completes the row (status,
 * duration, records, error); it is then the request's provenance entry. The in-process limiter
 * (rateLimiter.ts) still orders and paces this process's own requests; this is the gate between
 * processes.
 */
import type { Db } from '../store/database';
import type { LoggedRequest } from './requester';
import type { WriteTurns } from '../store/writeTurns';

const WINDOW_MS = 60_000;
const MARGIN_MS = 100;
/** A row still "in flight" after this long belongs to a killed process: it stops counting. */
const STALE_MS = 120_000;
/** How soon a request held back by a long write asks again. */
const TURN_RETRY_MS = 100;

export type Admission = { id: number } | { retryInMs: number };

export type RateLedger = {
  admit(rate: number): Admission;
  end(id: number, entry: LoggedRequest, runId: number | null): void;
};

/**
 * The ledger beside a long write on another connection (an import's merge, store/writeTurns.ts):
 * while it holds the engine's write turns a request waits (asks again shortly) rather than block
 * the engine thread on the write lock, and a request's end is written in its turn.
 */
export function ledgerInTurns(ledger: RateLedger, turns: WriteTurns): RateLedger {
  return {
    admit: (rate) => (turns.busy ? { retryInMs: TURN_RETRY_MS } : ledger.admit(rate)),
    end(id, entry, runId) {
      if (!turns.busy) return ledger.end(id, entry, runId);
      // Written after the long write; a failure then leaves the row in flight: it stops counting after STALE_MS.
      turns.take(() => ledger.end(id, entry, runId)).catch(() => undefined);
    },
  };
}

export function createRateLedger(db: Db, keyDigest: string, holder: string, now: () => number): RateLedger {
  const recent = db.prepare<[string, number], { at: number; ended_at: number | null }>(
    'SELECT at, ended_at FROM request_log WHERE key_digest = ? AND at > ?',
  );
  const insert = db.prepare(
    `INSERT INTO request_log (run_id, at, url, status, duration_ms, records, error, key_digest, holder, ended_at)
     VALUES (NULL, ?, '', NULL, 0, NULL, NULL, ?, ?, NULL)`,
  );
  const finish = db.prepare(
    `UPDATE request_log SET run_id = @runId, url = @url, status = @status, duration_ms = @durationMs,
       records = @records, error = @error, ended_at = @endedAt WHERE id = @id`,
  );
  const admit = db.transaction((rate: number): Admission => {
    const t = now();
    const ends: number[] = [];
    let used = 0;
    for (const r of recent.all(keyDigest, t - STALE_MS)) {
      if (r.ended_at === null) used++;
      else if (r.ended_at > t - WINDOW_MS - MARGIN_MS) {
        used++;
        ends.push(r.ended_at);
      }
    }
    if (used < rate) return { id: Number(insert.run(t, keyDigest, holder).lastInsertRowid) };
    ends.sort((a, b) => a - b);
    const frees = ends[used - rate];
    return { retryInMs: frees === undefined ? 250 : Math.max(50, frees + WINDOW_MS + MARGIN_MS + 1 - t) };
  });
  return {
    admit: (rate) => admit.immediate(Math.max(1, Math.floor(rate))),
    end(id, e, runId) {
      finish.run({
        id,
        runId,
        url: e.url,
        status: e.status,
        durationMs: Math.round(e.durationMs),
        records: e.records,
        error: e.error,
        endedAt: now(),
      });
    },
  };
}
