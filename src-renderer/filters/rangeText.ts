/** A resolved date range in words: "25 Aug – 22 Nov 2026", "since 1 Mar 2026", "all history". */
import type { CountResult } from '../../src-shared/incidentQueries';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "4 Jul 2026" for 'YYYY-MM-DD' (calendar arithmetic only, no time zone). */
export function dayText(day: string, withYear = true): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return `${d} ${MONTHS[m - 1] ?? ''}${withYear ? ` ${y}` : ''}`;
}

export function rangeText(range: CountResult['range'] | null): string {
  if (!range) return '';
  const { from, to } = range;
  if (!from && !to) return 'All history';
  if (from && !to) return `Since ${dayText(from)}`;
  if (!from && to) return `Until ${dayText(to)}`;
  const sameYear = from?.slice(0, 4) === to?.slice(0, 4);
  return `${dayText(from as string, !sameYear)} – ${dayText(to as string)}`;
}
