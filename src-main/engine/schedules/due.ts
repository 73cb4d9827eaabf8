/**
 * When a weekly schedule is due, in its zone's wall time (luxon: a DST change moves the instant,
 * never the 07:00). `latestDueAt` is the last due instant at or before `now`: a schedule whose
 * recorded send is older than that is due — once, however many weeks were missed.
 */
import { DateTime } from 'luxon';

export type Weekly = { weekday: number; time: string; zone: string };

function at(local: DateTime, time: string): DateTime {
  const [hour, minute] = time.split(':').map(Number);
  return local.set({ hour: hour ?? 0, minute: minute ?? 0, second: 0, millisecond: 0 });
}

/** The latest due instant ≤ `now` (ms). */
export function latestDueAt(w: Weekly, now: number): number {
  const local = DateTime.fromMillis(now, { zone: w.zone });
  let due = at(local.minus({ days: (local.weekday - w.weekday + 7) % 7 }), w.time);
  if (due.toMillis() > now) due = at(due.minus({ days: 7 }), w.time);
  return due.toMillis();
}

/** The first due instant after `now` (ms). */
export function nextDueAt(w: Weekly, now: number): number {
  const latest = DateTime.fromMillis(latestDueAt(w, now), { zone: w.zone });
  return at(latest.plus({ days: 7 }), w.time).toMillis();
}

/**
 * The report a send due at `dueAt` prints: the seven local days before the due day (Monday 07:00
 * → the week Monday to Sunday just ended), as-of its last day.
 */
export function bulletinWeek(w: Weekly, dueAt: number): { from: string; to: string } {
  const dueDay = DateTime.fromMillis(dueAt, { zone: w.zone }).startOf('day');
  return {
    from: dueDay.minus({ days: 7 }).toISODate() as string,
    to: dueDay.minus({ days: 1 }).toISODate() as string,
  };
}
