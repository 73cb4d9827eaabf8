/**
 * Time playback's periods: the filter's days cut into days or weeks (weeks start on Monday, as
 * CompStat's; the first and last cut to the filter's dates), each a slice of the engine's day-sorted columns (getPlaybackPoints), its
 * words for the slider, and the filter that selects exactly its incidents (the filters with the
 * period's dates), so its count can be checked against countIncidents; and, per type, how many of
 * the period's incidents a map view shows (the legend's "In view" while playback is open).
 */
import type { PlaybackPoints } from '../../../src-shared/analysis';
import { dayNumber, dayString, weekdayOf, type Filters } from '../../../src-shared/filters';
import { dayRangeText, dayText } from '../../../src-shared/localTime';

export type PlaybackStep = 'day' | 'week';
export type Period = { from: string; to: string };

type Days = Pick<PlaybackPoints, 'firstDay' | 'offsets'> & Partial<Pick<PlaybackPoints, 'from' | 'to'>>;

/**
 * The days playback covers: the data's first to last day, cut to the filter's dates where they are
 * bounded (the engine's data is inside them; a period never leaves them either way).
 */
function span(points: Days): { first: number; last: number } | null {
  if (points.firstDay === null) return null;
  const dataFirst = dayNumber(points.firstDay);
  const dataLast = dataFirst + points.offsets.length - 2;
  const from = points.from ? dayNumber(points.from) : Number.NaN;
  const to = points.to ? dayNumber(points.to) : Number.NaN;
  const first = Number.isNaN(from) ? dataFirst : Math.max(from, dataFirst);
  const last = Number.isNaN(to) ? dataLast : Math.min(to, dataLast);
  return last >= first ? { first, last } : null;
}

/** The first period's first day (a week's Monday), how many periods cover the span, and the span. */
function frame(
  points: Days,
  step: PlaybackStep,
): { start: number; periods: number; first: number; last: number } {
  const days = span(points);
  if (!days) return { start: 0, periods: 0, first: 0, last: -1 };
  const { first, last } = days;
  const start = step === 'day' ? first : first - ((weekdayOf(first) + 6) % 7);
  const size = step === 'day' ? 1 : 7;
  return { start, periods: Math.floor((last - start) / size) + 1, first, last };
}

export function periodCount(points: Days, step: PlaybackStep): number {
  return frame(points, step).periods;
}

/** The index-th period, a week cut to the span at either end (never a day outside the filter's dates). */
export function periodAt(points: Days, step: PlaybackStep, index: number): Period | null {
  const { start, periods, first, last } = frame(points, step);
  if (index < 0 || index >= periods) return null;
  const from = start + index * (step === 'day' ? 1 : 7);
  const to = step === 'day' ? from : from + 6;
  return { from: dayString(Math.max(from, first)), to: dayString(Math.min(to, last)) };
}

/** The incidents of a period: [begin, end) in the day-sorted columns. */
export function sliceOf(points: Days, period: Period): [number, number] {
  if (points.firstDay === null) return [0, 0];
  const first = dayNumber(points.firstDay);
  const days = points.offsets.length - 1;
  const clamp = (d: number) => Math.max(0, Math.min(days, d));
  const a = clamp(dayNumber(period.from) - first);
  const b = clamp(dayNumber(period.to) - first + 1);
  return [points.offsets[a] as number, points.offsets[b] as number];
}

/** "Mon, Nov 17, 2026" or "Week of Nov 17 – Nov 23, 2026". */
export function periodText(period: Period, step: PlaybackStep): string {
  if (step === 'day' || period.from === period.to) return dayText(period.from, { weekday: true });
  return `Week of ${dayRangeText(period.from, period.to)}`;
}

/** How many milliseconds a period stays on screen while playing at `speed` (1 = PLAY_INTERVAL_MS). */
export const PLAY_INTERVAL_MS = 800;
export const PLAY_SPEEDS = [0.5, 1, 2, 4] as const;
export type PlaySpeed = (typeof PLAY_SPEEDS)[number];
export const playInterval = (speed: PlaySpeed): number => PLAY_INTERVAL_MS / speed;
export const speedText = (speed: PlaySpeed): string => `${speed === 0.5 ? '½' : speed}×`;

/** The legend's rows for a frame: each type's count is the frame's (0 for a type it lacks). */
export function frameEntries<E extends { type: string; count: number }>(
  entries: readonly E[],
  byType: Readonly<Record<string, number>>,
): E[] {
  return entries.map((e) => ({ ...e, count: byType[e.type] ?? 0 }));
}

/** Per type, the incidents [begin, end) of the day-sorted columns (the frame shown, in view or not). */
export function periodByType(
  points: Pick<PlaybackPoints, 'typeIndex' | 'types'>,
  begin: number,
  end: number,
): Record<string, number> {
  const byType: Record<string, number> = {};
  for (let k = begin; k < end; k++) {
    const type = points.types[points.typeIndex[k] as number] ?? '';
    byType[type] = (byType[type] ?? 0) + 1;
  }
  return byType;
}

/** The filters that select exactly the period's incidents (its dates within the filters'). */
export function periodFilters(filters: Filters, period: Period): Filters {
  const { preset: _preset, ...rest } = filters;
  return { ...rest, from: period.from, to: period.to };
}

/** A map view in Web Mercator pixels at its zoom: `scale` = 256·2^zoom, `origin` the view's top-left. */
export type PixelView = { scale: number; origin: { x: number; y: number }; size: { x: number; y: number } };

/** A point's position in a view's pixels (0, 0 = the view's top-left). */
export function toPixel(
  lat: number,
  lon: number,
  view: Pick<PixelView, 'scale' | 'origin'>,
): [number, number] {
  const la = (lat * Math.PI) / 180;
  const x = ((lon + 180) / 360) * view.scale - view.origin.x;
  const y = ((1 - Math.log(Math.tan(la) + 1 / Math.cos(la)) / Math.PI) / 2) * view.scale - view.origin.y;
  return [x, y];
}

/** Per type, the incidents [begin, end) of the day-sorted columns inside the view (types with none left out). */
export function periodInView(
  points: Pick<PlaybackPoints, 'lat' | 'lon' | 'typeIndex' | 'types'>,
  begin: number,
  end: number,
  view: PixelView,
): Record<string, number> {
  const byType: Record<string, number> = {};
  for (let k = begin; k < end; k++) {
    const [x, y] = toPixel(points.lat[k] as number, points.lon[k] as number, view);
    if (x < 0 || y < 0 || x > view.size.x || y > view.size.y) continue;
    const type = points.types[points.typeIndex[k] as number] ?? '';
    byType[type] = (byType[type] ?? 0) + 1;
  }
  return byType;
}
