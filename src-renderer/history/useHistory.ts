/**
 * Everything the History view shows, for the current filters: the trend at the chosen interval, the
 * period comparison, the hour × weekday grid, the top locations and the coverage band — re-queried
 * whenever the filters or the archive change.
 */
import type { Filters } from '../../src-shared/filters';
import type { Interval } from '../../src-shared/incidentQueries';
import type { Client } from '../bridge/client';
import { comparedPeriod, todayLocal } from './period';
import { useCall } from '../bridge/useCall';

export const TOP_LOCATIONS = 15;

export function useHistory(client: Client, filters: Filters, interval: Interval, dataVersion: number) {
  const key = `${JSON.stringify(filters)}|${dataVersion}`;
  const period = comparedPeriod(filters, todayLocal());
  const areaId = filters.area && 'areaId' in filters.area ? filters.area.areaId : undefined;
  const series = useCall(() => client.call('historySeries', { filters, interval }), [key, interval]);
  const compare = useCall(
    () => client.call('comparePeriods', { filters, from: period.from, to: period.to }),
    [key, period.from, period.to],
  );
  const grid = useCall(() => client.call('hourWeekdayGrid', { filters }), [key]);
  const top = useCall(() => client.call('topLocations', { filters, limit: TOP_LOCATIONS }), [key]);
  const range = series.data?.range;
  const coverage = useCall(
    () =>
      client.call('coverageBand', {
        ...(areaId ? { areaId } : {}),
        ...(range?.from ? { from: range.from } : {}),
        ...(range?.to ? { to: range.to } : {}),
      }),
    [areaId, range?.from, range?.to, dataVersion],
    range !== undefined,
  );
  return { series, compare, grid, top, coverage, period };
}
