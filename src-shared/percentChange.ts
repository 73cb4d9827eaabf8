/**
 * When a change is worth a percentage (DESIGN.md, "Percent change"): only when the base count is
 * at least MIN_PERCENT_BASE. From 2 to 1,027 incidents is "+51250 %", which says nothing an
 * analyst can use; below the minimum the counts themselves are shown. The one constant for every
 * view, export and report.
 */
export const MIN_PERCENT_BASE = 10;

/** The change from `base` to `current` in percent (one decimal), or null when the base is too small. */
export function percentChange(current: number, base: number): number | null {
  if (!(base >= MIN_PERCENT_BASE)) return null;
  return Math.round(((current - base) / base) * 1000) / 10;
}
