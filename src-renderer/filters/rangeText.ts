/** A resolved date range in words: "25 Aug – 22 Nov 2026", "since 1 Mar 2026", "all history". */
import type { CountResult } from '../../src-shared/incidentQueries';
import { dayText as localDayText } from '../../src-shared/localTime';

/** A calendar day 'YYYY-MM-DD' in the user's locale, from the one formatter (src-shared/localTime.ts). */
export function dayText(day: string, withYear = true): string {
  return localDayText(day, { year: withYear });
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
