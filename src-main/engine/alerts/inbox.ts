/**
 * The in-app inbox: the alerts rows themselves, newest first, with the notes on their incidents
 * (amended, removed, restored) and each channel's delivery state (failures shown, never silent).
 */
import type { Alert } from '../../../src-shared/alerts';
import type { Db } from '../store/database';

type Row = {
  id: number;
  uid: string;
  rule_id: number | null;
  rule_name: string;
  area_id: number | null;
  kind: Alert['condition'];
  cdids: string;
  detail: string;
  fired_at: number;
  read_at: number | null;
};

export function listAlerts(db: Db, opts: { limit?: number; unreadOnly?: boolean } = {}): Alert[] {
  const rows = db
    .prepare<[number], Row>(
      `SELECT * FROM alerts ${opts.unreadOnly ? 'WHERE read_at IS NULL' : ''} ORDER BY fired_at DESC, id DESC LIMIT ?`,
    )
    .all(opts.limit ?? 200);
  const notes = db.prepare<[number], { cdid: number; kind: 'amended' | 'removed' | 'restored'; at: number }>(
    'SELECT cdid, kind, at FROM alert_notes WHERE alert_id = ? ORDER BY id',
  );
  const deliveries = db.prepare<
    [number],
    {
      channel: 'webhook' | 'email';
      state: 'pending' | 'delivered' | 'failed';
      attempts: number;
      next_attempt_at: number;
      last_error: string | null;
      delivered_at: number | null;
    }
  >(
    'SELECT channel, state, attempts, next_attempt_at, last_error, delivered_at FROM alert_deliveries WHERE alert_id = ? ORDER BY channel',
  );
  return rows.map((r) => ({
    id: r.uid,
    ruleId: r.rule_id,
    ruleName: r.rule_name,
    areaId: r.area_id,
    condition: r.kind,
    cdids: JSON.parse(r.cdids) as number[],
    detail: JSON.parse(r.detail) as Record<string, unknown>,
    firedAt: r.fired_at,
    read: r.read_at !== null,
    notes: notes.all(r.id),
    deliveries: deliveries.all(r.id).map((d) => ({
      channel: d.channel,
      state: d.state,
      attempts: d.attempts,
      nextAttemptAt: d.state === 'pending' ? d.next_attempt_at : null,
      lastError: d.last_error,
      deliveredAt: d.delivered_at,
    })),
  }));
}

export function unreadCount(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM alerts WHERE read_at IS NULL').get() as { n: number }).n;
}

/** Marks alerts read by their stable ids; returns how many changed. */
export function markRead(db: Db, uids: readonly string[], now: number): number {
  return db
    .prepare(
      'UPDATE alerts SET read_at = ? WHERE read_at IS NULL AND uid IN (SELECT value FROM json_each(?))',
    )
    .run(now, JSON.stringify(uids)).changes;
}
