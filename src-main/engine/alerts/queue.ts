/**
 * The delivery queue: one row per alert and enabled channel, written in the alert's own
 * transaction, so an alert and its deliveries exist together or not at all. Like the sync's jobs,
 * the queue is the state: a delivery is claimed (its next attempt pushed out by a lease) before it
 * is sent, every attempt is logged, failures back off exponentially with jitter and stay visible
 * (`last_error`); after MAX_ATTEMPTS a delivery is 'failed' — shown, retryable, the alert kept.
 */
import type { DeliveryChannel } from '../../../src-shared/alerts';
import type { Db } from '../store/database';
import { emailConfig, enabledChannels, nextDigestAt } from './channels';

export const BACKOFF = { baseMs: 30_000, capMs: 3_600_000, maxAttempts: 10, leaseMs: 5 * 60_000 } as const;

export type DeliveryRow = {
  id: number;
  alert_id: number;
  channel: DeliveryChannel;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  delivered_at: number | null;
};

/** Queues the alert on every enabled channel (inside the caller's transaction). */
export function enqueueDeliveries(db: Db, alertId: number, now: number): void {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO alert_deliveries (alert_id, channel, next_attempt_at, created_at) VALUES (?, ?, ?, ?)`,
  );
  for (const c of enabledChannels(db)) {
    let at = now;
    if (c.channel === 'email') {
      const cfg = emailConfig(db);
      if (cfg?.mode === 'digest') at = nextDigestAt(now, cfg.digestHour);
    }
    insert.run(alertId, c.channel, at, now);
  }
}

/** Pending deliveries due by `now`, oldest first. */
export function dueDeliveries(db: Db, now: number, limit = 50): DeliveryRow[] {
  return db
    .prepare<[number, number], DeliveryRow>(
      `SELECT * FROM alert_deliveries WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    )
    .all(now, limit);
}

/** Takes a due delivery for one attempt (another process may hold it); false when not ours. */
export function claim(db: Db, id: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE alert_deliveries SET next_attempt_at = ? WHERE id = ? AND state = 'pending' AND next_attempt_at <= ?`,
      )
      .run(now + BACKOFF.leaseMs, id, now).changes === 1
  );
}

/** The wait before attempt `attempts + 1`: base·2^(attempts−1), capped, with ±25 % jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const plain = Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(plain * (0.75 + random() * 0.5));
}

/** Records one attempt's outcome and its log row, in one transaction. `error` must be redacted. */
export function recordAttempt(
  db: Db,
  id: number,
  outcome: { ok: true } | { ok: false; error: string; permanent?: boolean },
  at: number,
  durationMs: number,
): void {
  db.transaction(() => {
    const row = db.prepare<[number], DeliveryRow>('SELECT * FROM alert_deliveries WHERE id = ?').get(id);
    if (!row) return;
    const attempts = row.attempts + 1;
    db.prepare(
      'INSERT INTO alert_delivery_log (delivery_id, at, ok, error, duration_ms) VALUES (?, ?, ?, ?, ?)',
    ).run(id, at, outcome.ok ? 1 : 0, outcome.ok ? null : outcome.error, durationMs);
    if (outcome.ok) {
      db.prepare(
        "UPDATE alert_deliveries SET state = 'delivered', attempts = ?, delivered_at = ?, last_error = NULL WHERE id = ?",
      ).run(attempts, at, id);
      return;
    }
    const give = outcome.permanent === true || attempts >= BACKOFF.maxAttempts;
    db.prepare(
      'UPDATE alert_deliveries SET state = ?, attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?',
    ).run(give ? 'failed' : 'pending', attempts, outcome.error, at + backoffMs(attempts), id);
  }).immediate();
}

/** Puts a failed delivery back in the queue, due now (the user's "retry"). */
export function retryDelivery(db: Db, id: number, now: number): boolean {
  return (
    db
      .prepare(
        "UPDATE alert_deliveries SET state = 'pending', next_attempt_at = ? WHERE id = ? AND state = 'failed'",
      )
      .run(now, id).changes === 1
  );
}
