/**
 * Weekdays as people read a week: Monday first, as CompStat's weeks and the hour × weekday grid run.
 * Only the order shown changes; the stored numbering stays 0 = Sunday … 6 = Saturday (filters.ts).
 */
export const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** The stored day numbers in the order shown: Monday … Sunday. */
export const MONDAY_FIRST: readonly number[] = [1, 2, 3, 4, 5, 6, 0];

/** A sort comparator over stored day numbers: Monday first, Sunday last. */
export const mondayFirst = (a: number, b: number): number => ((a + 6) % 7) - ((b + 6) % 7);
