/**
 * The incident table's columns sized to their content. Each row of the virtualized grid is its own
 * CSS grid (rows are positioned one by one), so no browser layout can size a column across rows:
 * the table measures the text of the cells it has drawn (header included) and keeps, per column,
 * the widest seen so far — columns only grow, so scrolling never makes them jump back. The address
 * column also takes the room left over; when the columns need more than the table's width, the
 * table scrolls sideways instead of cutting a cell.
 */

/** Room added to each measured width: sub-pixel text and rounding never cut a cell. */
export const CELL_SLACK_PX = 4;

/** The widest of what was kept and what was just measured, per column (whole pixels, with slack). */
export function grownWidths(kept: readonly number[], measured: readonly number[]): number[] {
  const count = Math.max(kept.length, measured.length);
  return Array.from({ length: count }, (_, i) => {
    const seen = measured[i];
    const need = seen === undefined || !Number.isFinite(seen) ? 0 : Math.ceil(seen) + CELL_SLACK_PX;
    return Math.max(kept[i] ?? 0, need);
  });
}

/** The rows' `grid-template-columns`: every column at its width, the flexible one also taking the rest. */
export function gridColumns(widths: readonly number[], flexible: number): string {
  return widths.map((w, i) => (i === flexible ? `minmax(${w}px, 1fr)` : `${w}px`)).join(' ');
}

/** A row's least width: the columns, the gaps between them and the row's side padding. */
export function rowMinWidth(widths: readonly number[], gapPx: number, paddingPx: number): number {
  const sum = widths.reduce((a, b) => a + b, 0);
  return sum + gapPx * Math.max(0, widths.length - 1) + 2 * paddingPx;
}

/** A width the user set by dragging or with the arrow keys stays within these. */
export const MIN_COLUMN_PX = 40;
export const MAX_COLUMN_PX = 1200;
/** Before a column's first measure: room for a short header. */
export const START_COLUMN_PX = 80;

/** Measured widths kept per column id, grown by this measure of the shown columns (`ids`, in order). */
export function grownById(
  kept: Readonly<Record<string, number>>,
  ids: readonly string[],
  measured: readonly number[],
): Record<string, number> {
  const grown = grownWidths(
    ids.map((id) => kept[id] ?? 0),
    measured,
  );
  const next = { ...kept };
  ids.forEach((id, i) => {
    if ((grown[i] ?? 0) > 0) next[id] = grown[i] as number;
  });
  return next;
}

/** Each shown column's width: the user's if set, else its widest text, else a start width. */
export function widthsFor(
  ids: readonly string[],
  measured: Readonly<Record<string, number>>,
  user: Readonly<Record<string, number>>,
): number[] {
  return ids.map((id) => user[id] ?? measured[id] ?? START_COLUMN_PX);
}

/** The user's widths with one column set to `width` (whole pixels, within the limits). */
export function resizedWidths(
  user: Readonly<Record<string, number>>,
  id: string,
  width: number,
): Record<string, number> {
  const w = Math.round(Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, width)));
  return { ...user, [id]: w };
}
