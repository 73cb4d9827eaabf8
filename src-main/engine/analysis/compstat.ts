/**
 * CompStat: per area and type, this week to date (weeks start on Monday), the last 7 days and the
 * last 28 days, each against the same days 364 days earlier (same weekdays), and the year to date
 * against the same calendar dates a year earlier. "Today" is in the area's own zone (or a given
 * as-of day); each period ends on it. Counts, differences and percent change (only at a base of
 * MIN_PERCENT_BASE or more), and a caveat where the archive does not fully hold both periods.
 */
import { DateTime } from 'luxon';
import { dayNumber, dayString, sameDayLastYear, weekdayOf } from '../../../src-shared/filters';
import { MIN_PERCENT_BASE, percentChange } from '../../../src-shared/percentChange';
import { MISSING, PROVISIONAL, SATURATED } from '../query/ledger';
import type { DayStatuses } from '../query/coverage';
import { requireEnough } from './points';

export const PERIOD_KEYS = ['week_to_date', 'last_7_days', 'last_28_days', 'year_to_date'] as const;
export type PeriodKey = (typeof PERIOD_KEYS)[number];
const LABELS: Record<PeriodKey, string> = {
  week_to_date: 'Week to date',
  last_7_days: 'Last 7 days',
  last_28_days: 'Last 28 days',
  year_to_date: 'Year to date',
};

export type Span = { from: number; to: number };
export type PeriodSpans = Record<PeriodKey, { current: Span; previous: Span }>;

export type CompStatArea = {
  id: number;
  name: string;
  /** IANA zone of the area: "today" is read there. */
  zone: string;
  /** Indices (into the columns given) of the area's incidents. */
  rows: ArrayLike<number>;
  /** The archive's day statuses for the area over a range holding every period (see compStatRange). */
  coverage?: DayStatuses;
};

export type CompStatInput = {
  day: Int32Array;
  type: Uint16Array;
  /** Type names by dictionary id. */
  typeNames: readonly string[];
  areas: readonly CompStatArea[];
  /** The moment "today" is taken at (epoch ms); ignored when asOf is given. */
  now: number;
  /** 'YYYY-MM-DD': end every period on this day instead of today. */
  asOf?: string;
};

export type PeriodCoverageStatus = 'full' | 'provisional' | 'partial' | 'none' | 'unknown';
export type PeriodInfo = {
  key: PeriodKey;
  label: string;
  current: { from: string; to: string; coverage: PeriodCoverageStatus };
  previous: { from: string; to: string; coverage: PeriodCoverageStatus };
  caveat: string | null;
};
export type CompStatCell = { current: number; previous: number; difference: number; percent: number | null };
export type CompStatAreaResult = {
  areaId: number;
  area: string;
  zone: string;
  today: string;
  periods: PeriodInfo[];
  /** One row per type seen in any period, then 'All types'; cells in PERIOD_KEYS order. */
  rows: { type: string; cells: CompStatCell[] }[];
};
export type CompStatResult = {
  areas: CompStatAreaResult[];
  parameters: { weeks_start: 'Monday'; as_of: string | null; min_percent_base: number; incidents: number };
};

/** The day number of "today" in a zone. */
export function todayIn(zone: string, now: number): number {
  const iso = DateTime.fromMillis(now, { zone }).toISODate();
  if (!iso) throw new RangeError(`Unknown time zone ${zone}`);
  return dayNumber(iso);
}

export function periodSpans(today: number): PeriodSpans {
  const back = (s: Span): Span => ({ from: s.from - 364, to: s.to - 364 });
  const monday = today - ((weekdayOf(today) + 6) % 7);
  const wtd = { from: monday, to: today };
  const last7 = { from: today - 6, to: today };
  const last28 = { from: today - 27, to: today };
  const jan1 = dayNumber(`${dayString(today).slice(0, 4)}-01-01`);
  const jan1Before = dayNumber(`${Number(dayString(today).slice(0, 4)) - 1}-01-01`);
  return {
    week_to_date: { current: wtd, previous: back(wtd) },
    last_7_days: { current: last7, previous: back(last7) },
    last_28_days: { current: last28, previous: back(last28) },
    year_to_date: {
      current: { from: jan1, to: today },
      previous: { from: jan1Before, to: sameDayLastYear(today) },
    },
  };
}

/** The days a CompStat for `today` reads: give the coverage over this range. */
export function compStatRange(today: number): Span {
  const s = periodSpans(today);
  const all = PERIOD_KEYS.flatMap((k) => [s[k].current, s[k].previous]);
  return { from: Math.min(...all.map((x) => x.from)), to: Math.max(...all.map((x) => x.to)) };
}

function coverageOf(span: Span, c: DayStatuses | undefined): { status: PeriodCoverageStatus; held: number } {
  if (!c) return { status: 'unknown', held: 0 };
  let complete = 0;
  let provisional = 0;
  let missing = 0;
  for (let d = span.from; d <= span.to; d++) {
    const s = c.statuses[d - c.from] ?? MISSING;
    if (s >= SATURATED) complete++;
    else if (s === PROVISIONAL) provisional++;
    else missing++;
  }
  const held = complete + provisional;
  const status = held === 0 ? 'none' : missing > 0 ? 'partial' : provisional > 0 ? 'provisional' : 'full';
  return { status, held };
}

function caveatOf(
  label: string,
  cur: Span,
  prev: Span,
  a: ReturnType<typeof coverageOf>,
  b: ReturnType<typeof coverageOf>,
): string | null {
  const words: string[] = [];
  const side = (name: string, s: Span, c: ReturnType<typeof coverageOf>) => {
    const days = s.to - s.from + 1;
    if (c.status === 'none')
      words.push(`the archive holds none of ${name} (${dayString(s.from)} to ${dayString(s.to)})`);
    else if (c.status === 'partial')
      words.push(
        `the archive holds only ${c.held} of the ${days} days of ${name} (${dayString(s.from)} to ${dayString(s.to)})`,
      );
  };
  side(`this ${label.toLowerCase()}`, cur, a);
  side('the year before', prev, b);
  if (words.length > 0) {
    const text = words.join('; ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}: not a like-for-like comparison.`;
  }
  if (a.status === 'provisional')
    return 'Recent days are still being reported; this period’s count may still rise.';
  return null;
}

export function compStat(input: CompStatInput): CompStatResult {
  const total = input.areas.reduce((n, a) => n + a.rows.length, 0);
  requireEnough(total, 'CompStat');
  const out: CompStatAreaResult[] = [];
  const asOf = input.asOf !== undefined ? dayNumber(input.asOf) : null;
  if (asOf !== null && Number.isNaN(asOf)) throw new RangeError('Give the as-of day as YYYY-MM-DD.');
  const nTypes = Math.max(1, input.typeNames.length);
  for (const area of input.areas) {
    const today = asOf ?? todayIn(area.zone, input.now);
    const spans = periodSpans(today);
    const range = compStatRange(today);
    // One pass over the area's incidents into a (type, day) histogram, then each period side is
    // a sum over its days: 1M incidents cost one increment each.
    const span = range.to - range.from + 1;
    const byDay = new Uint32Array(nTypes * span);
    const rows = area.rows;
    for (let j = 0; j < rows.length; j++) {
      const i = rows[j] as number;
      const d = (input.day[i] as number) - range.from;
      if (d >= 0 && d < span) byDay[(input.type[i] as number) * span + d]!++;
    }
    // counts[type · 8 + side]: side 2k is the current span of period k, 2k + 1 the year before.
    const counts = new Uint32Array(nTypes * 8);
    PERIOD_KEYS.forEach((key, k) => {
      const sides = [spans[key].current, spans[key].previous];
      sides.forEach((side, b) => {
        for (let t = 0; t < nTypes; t++) {
          let sum = 0;
          for (let d = side.from; d <= side.to; d++) sum += byDay[t * span + d - range.from] as number;
          counts[t * 8 + 2 * k + b] = sum;
        }
      });
    });
    const cellsOf = (get: (bit: number) => number): CompStatCell[] =>
      PERIOD_KEYS.map((_, k) => {
        const current = get(2 * k);
        const previous = get(2 * k + 1);
        return {
          current,
          previous,
          difference: current - previous,
          percent: percentChange(current, previous),
        };
      });
    const typeRows: CompStatAreaResult['rows'] = [];
    for (let t = 0; t < nTypes; t++) {
      let any = 0;
      for (let b = 0; b < 8; b++) any += counts[t * 8 + b] as number;
      if (any > 0)
        typeRows.push({
          type: input.typeNames[t] ?? `type ${t}`,
          cells: cellsOf((bit) => counts[t * 8 + bit] as number),
        });
    }
    typeRows.sort((a, b) => a.type.localeCompare(b.type));
    typeRows.push({
      type: 'All types',
      cells: cellsOf((bit) => {
        let s = 0;
        for (let t = 0; t < nTypes; t++) s += counts[t * 8 + bit] as number;
        return s;
      }),
    });
    out.push({
      areaId: area.id,
      area: area.name,
      zone: area.zone,
      today: dayString(today),
      periods: PERIOD_KEYS.map((key) => {
        const { current, previous } = spans[key];
        const a = coverageOf(current, area.coverage);
        const b = coverageOf(previous, area.coverage);
        return {
          key,
          label: LABELS[key],
          current: { from: dayString(current.from), to: dayString(current.to), coverage: a.status },
          previous: { from: dayString(previous.from), to: dayString(previous.to), coverage: b.status },
          caveat: caveatOf(LABELS[key], current, previous, a, b),
        };
      }),
      rows: typeRows,
    });
  }
  return {
    areas: out,
    parameters: {
      weeks_start: 'Monday',
      as_of: input.asOf ?? null,
      min_percent_base: MIN_PERCENT_BASE,
      incidents: total,
    },
  };
}
