/** The table's sort: which column, which way, and which columns can sort now. Pure. */
import type { Filters } from '../../src-shared/filters';
import type { SortKey } from '../../src-shared/incidentQueries';

export type Sort = { by: SortKey; dir: 'asc' | 'desc' };

export const DEFAULT_SORT: Sort = { by: 'date', dir: 'desc' };

/** The direction a column starts in: newest and nearest first, names A to Z. */
const FIRST_DIR: Record<SortKey, Sort['dir']> = {
  date: 'desc',
  distance: 'asc',
  type: 'asc',
  address: 'asc',
};

/** Clicking a header: a new column starts in its natural direction, the same column flips. */
export function nextSort(current: Sort, by: SortKey): Sort {
  if (current.by !== by) return { by, dir: FIRST_DIR[by] };
  return { by, dir: current.dir === 'asc' ? 'desc' : 'asc' };
}

/** Distance needs a centre: the filter's area. */
export function canSortBy(by: SortKey, filters: Filters): boolean {
  return by !== 'distance' || filters.area !== undefined;
}

/** The sort to query with: the chosen one, or the default when it cannot apply any more. */
export function effectiveSort(sort: Sort, filters: Filters): Sort {
  return canSortBy(sort.by, filters) ? sort : DEFAULT_SORT;
}

export function ariaSort(sort: Sort, by: SortKey): 'ascending' | 'descending' | 'none' {
  if (sort.by !== by) return 'none';
  return sort.dir === 'asc' ? 'ascending' : 'descending';
}
