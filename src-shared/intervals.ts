/** The bucket size that makes a readable trend for a range: days up to two months, weeks up to ~18 months, months beyond. */
import { dayNumber } from './filters';
import type { Interval } from './incidentQueries';

export function intervalFor(from: string | null, to: string | null): Interval {
  if (!from || !to) return 'month';
  const days = dayNumber(to) - dayNumber(from) + 1;
  return days <= 62 ? 'day' : days <= 550 ? 'week' : 'month';
}
