/** The period the History view compares: the filter's own date range, or the last 30 days when it has none. */
import { dayNumber, dayString, resolveDateRange, type Filters } from '../../src-shared/filters';

export const DEFAULT_PERIOD_DAYS = 30;

export function todayLocal(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export type ComparedPeriod = { from: string; to: string; fromFilter: boolean };

export function comparedPeriod(filters: Filters, today: string): ComparedPeriod {
  const range = resolveDateRange(filters, today);
  if (range.from && range.to) return { from: range.from, to: range.to, fromFilter: true };
  const to = range.to ?? today;
  return { from: dayString(dayNumber(to) - DEFAULT_PERIOD_DAYS + 1), to, fromFilter: false };
}
