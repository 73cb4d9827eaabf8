/**
 * CompStat that fits the archive (issue 27, item 1): per area (or per feature of a boundary
 * layer), four periods ending on "today" in the area's own zone (or a given as-of day): week to
 * date (weeks start on Monday), the last 7 days, the last 28 days and the year to date. Week to
 * date is compared with the same weekdays of the week before, the last 7 and 28 days with the 7
 * and 28 days just before them; every period also with the same days a year earlier (364 days
 * back, so the same weekdays; the year to date with the same calendar dates, its only
 * comparison). A comparison is made only where the archive fully holds both its sides (the
 * coverage ledger's day statuses): one the archive cannot make is left out of the cells and said
 * once in the table's notes, never counted as "vs 0". Rows: the violent and property groups with
 * their types, Arrest and Other on rows of their own, any other type the archive holds, and the
 * total. Percent change only at a base of MIN_PERCENT_BASE or more.
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

/** The groups of the table, in order; a type outside them gets a row of its own after Other. */
export const COMPSTAT_GROUPS: readonly { label: string; types: readonly string[] }[] = [
  { label: 'Violent', types: ['Shooting', 'Assault', 'Robbery'] },
  { label: 'Property', types: ['Burglary', 'Theft', 'Arson', 'Vandalism'] },
];
const OWN_ROWS = ['Arrest', 'Other'] as const;

export type Span = { from: number; to: number };
/** Each period's own days, the days just before (none for the year to date) and a year earlier. */
export type PeriodSpans = Record<PeriodKey, { current: Span; prior: Span | null; yearAgo: Span }>;

export type CompStatArea = {
  id: number;
  name: string;
  /** IANA zone of the area: "today" is read there. */
  zone: string;
  /** Indices (into the columns given) of the area's incidents. */
  rows: ArrayLike<number>;
  /** The archive's day statuses for the area over a range holding every period (see compStatRange). */
  coverage?: DayStatuses;
  /** Set when the table is one feature of a boundary layer. */
  feature?: { layerId: number; layer: string; featureId: number };
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
/** One side of a period: its days, how much of them the archive holds, and whether it is compared. */
export type PeriodSide = { from: string; to: string; coverage: PeriodCoverageStatus; held: number };
export type PeriodInfo = {
  key: PeriodKey;
  label: string;
  current: PeriodSide;
  /** The days just before (null for the year to date); `compared` false when the archive cannot. */
  prior: (PeriodSide & { compared: boolean }) | null;
  yearAgo: PeriodSide & { compared: boolean };
};
/** A comparison: the base count, the change from it, percent change (null below the base floor). */
export type Comparison = { base: number; change: number; percent: number | null };
/** A period's count and its comparisons; a comparison the archive cannot make is null. */
export type CompStatCell = { current: number; prior: Comparison | null; yearAgo: Comparison | null };
export type CompStatRow = {
  label: string;
  /** total: every incident; group: violent or property; type: one type. */
  kind: 'total' | 'group' | 'type';
  /** The types the row counts (empty for the total: every type). */
  types: string[];
  /** In PERIOD_KEYS order. */
  cells: CompStatCell[];
};
export type CompStatAreaResult = {
  areaId: number;
  area: string;
  zone: string;
  today: string;
  feature?: { layerId: number; layer: string; featureId: number };
  periods: PeriodInfo[];
  rows: CompStatRow[];
  /** Short notes for the caption: comparisons left out, short counts, provisional days. */
  notes: string[];
};
export type CompStatResult = {
  areas: CompStatAreaResult[];
  parameters: {
    weeks_start: 'Monday';
    as_of: string | null;
    min_percent_base: number;
    incidents: number;
    year_ago: string;
  };
};

/** The day number of "today" in a zone. */
export function todayIn(zone: string, now: number): number {
  const iso = DateTime.fromMillis(now, { zone }).toISODate();
  if (!iso) throw new RangeError(`Unknown time zone ${zone}`);
  return dayNumber(iso);
}

export function periodSpans(today: number): PeriodSpans {
  const back = (s: Span, days: number): Span => ({ from: s.from - days, to: s.to - days });
  const monday = today - ((weekdayOf(today) + 6) % 7);
  const wtd = { from: monday, to: today };
  const last7 = { from: today - 6, to: today };
  const last28 = { from: today - 27, to: today };
  const jan1 = dayNumber(`${dayString(today).slice(0, 4)}-01-01`);
  const jan1Before = dayNumber(`${Number(dayString(today).slice(0, 4)) - 1}-01-01`);
  return {
    week_to_date: { current: wtd, prior: back(wtd, 7), yearAgo: back(wtd, 364) },
    last_7_days: { current: last7, prior: back(last7, 7), yearAgo: back(last7, 364) },
    last_28_days: { current: last28, prior: back(last28, 28), yearAgo: back(last28, 364) },
    year_to_date: {
      current: { from: jan1, to: today },
      prior: null,
      yearAgo: { from: jan1Before, to: sameDayLastYear(today) },
    },
  };
}

/** The days a CompStat for `today` reads: give the coverage over this range. */
export function compStatRange(today: number): Span {
  const s = periodSpans(today);
  const all = PERIOD_KEYS.flatMap((k) => [s[k].current, s[k].prior, s[k].yearAgo]).filter(
    (x): x is Span => x !== null,
  );
  return { from: Math.min(...all.map((x) => x.from)), to: Math.max(...all.map((x) => x.to)) };
}

function coverageOf(span: Span, c: DayStatuses | undefined): { status: PeriodCoverageStatus; held: number } {
  const days = span.to - span.from + 1;
  if (!c) return { status: 'unknown', held: days };
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

/** Fully held (or not known otherwise: no coverage given). */
const whole = (s: PeriodCoverageStatus) => s === 'full' || s === 'provisional' || s === 'unknown';

/** "week to date, last 7 days and last 28 days". */
function listed(labels: string[]): string {
  const low = labels.map((l) => l.toLowerCase());
  return low.length <= 1 ? (low[0] ?? '') : `${low.slice(0, -1).join(', ')} and ${low.at(-1)}`;
}

function notesOf(periods: PeriodInfo[]): string[] {
  const notes: string[] = [];
  const short = periods.filter((p) => !whole(p.current.coverage));
  if (short.length)
    notes.push(
      `Counts are short where the archive lacks days, and not compared: ${short
        .map(
          (p) =>
            `${p.label.toLowerCase()} (${p.current.held} of ${dayNumber(p.current.to) - dayNumber(p.current.from) + 1} days held)`,
        )
        .join(', ')}.`,
    );
  const noPrior = periods.filter((p) => p.prior && !p.prior.compared && whole(p.current.coverage));
  if (noPrior.length)
    notes.push(
      `No comparison with the days just before for ${listed(noPrior.map((p) => p.label))}: the archive does not hold all of them.`,
    );
  const noYear = periods.filter((p) => !p.yearAgo.compared && whole(p.current.coverage));
  if (noYear.length) {
    const first = noYear.reduce((a, p) => (p.yearAgo.from < a ? p.yearAgo.from : a), noYear[0]!.yearAgo.from);
    const what = noYear.length === periods.length ? '' : ` for ${listed(noYear.map((p) => p.label))}`;
    notes.push(
      `No comparison with a year earlier${what}: the archive does not hold all of those days (from ${first}).`,
    );
  }
  if (periods.some((p) => p.current.coverage === 'provisional'))
    notes.push('Recent days are still being reported; their counts may rise.');
  return notes;
}

/** The table's rows: which type ids each counts, in order (groups with their types, own rows, others, total). */
function rowPlan(
  typeNames: readonly string[],
  seen: (t: number) => boolean,
): { label: string; kind: CompStatRow['kind']; ids: number[]; types: string[] }[] {
  const ids = (name: string) => typeNames.flatMap((n, t) => (n === name ? [t] : []));
  const plan: { label: string; kind: CompStatRow['kind']; ids: number[]; types: string[] }[] = [];
  const placed = new Set<string>();
  for (const g of COMPSTAT_GROUPS) {
    plan.push({ label: g.label, kind: 'group', ids: g.types.flatMap(ids), types: [...g.types] });
    for (const t of g.types) {
      plan.push({ label: t, kind: 'type', ids: ids(t), types: [t] });
      placed.add(t);
    }
  }
  for (const t of OWN_ROWS) {
    plan.push({ label: t, kind: 'type', ids: ids(t), types: [t] });
    placed.add(t);
  }
  const others = typeNames
    .map((n, t) => ({ n, t }))
    .filter(({ n, t }) => !placed.has(n) && seen(t))
    .sort((a, b) => a.n.localeCompare(b.n));
  for (const { n, t } of others) plan.push({ label: n, kind: 'type', ids: [t], types: [n] });
  plan.push({
    label: 'Total',
    kind: 'total',
    ids: typeNames.map((_, t) => t),
    types: [],
  });
  return plan;
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
    // One pass over the area's incidents into a (type, day) histogram, then each side of a
    // period is a sum over its days: 1M incidents cost one increment each.
    const span = range.to - range.from + 1;
    const byDay = new Uint32Array(nTypes * span);
    const rows = area.rows;
    for (let j = 0; j < rows.length; j++) {
      const i = rows[j] as number;
      const d = (input.day[i] as number) - range.from;
      if (d >= 0 && d < span) byDay[(input.type[i] as number) * span + d]!++;
    }
    const sum = (ids: number[], s: Span) => {
      let n = 0;
      for (const t of ids)
        for (let d = s.from; d <= s.to; d++) n += byDay[t * span + d - range.from] as number;
      return n;
    };
    const periods: PeriodInfo[] = PERIOD_KEYS.map((key) => {
      const { current, prior, yearAgo } = spans[key];
      const side = (s: Span) => {
        const c = coverageOf(s, area.coverage);
        return { from: dayString(s.from), to: dayString(s.to), coverage: c.status, held: c.held };
      };
      const cur = side(current);
      const base = (s: Span) => {
        const b = side(s);
        return { ...b, compared: whole(cur.coverage) && whole(b.coverage) };
      };
      return {
        key,
        label: LABELS[key],
        current: cur,
        prior: prior ? base(prior) : null,
        yearAgo: base(yearAgo),
      };
    });
    const compare = (current: number, base: number): Comparison => ({
      base,
      change: current - base,
      percent: percentChange(current, base),
    });
    const seen = (t: number) => {
      for (let d = 0; d < span; d++) if ((byDay[t * span + d] as number) > 0) return true;
      return false;
    };
    const tableRows: CompStatRow[] = rowPlan(input.typeNames, seen).map((r) => ({
      label: r.label,
      kind: r.kind,
      types: r.types,
      cells: PERIOD_KEYS.map((key, k) => {
        const s = spans[key];
        const p = periods[k]!;
        const current = sum(r.ids, s.current);
        return {
          current,
          prior: s.prior && p.prior?.compared ? compare(current, sum(r.ids, s.prior)) : null,
          yearAgo: p.yearAgo.compared ? compare(current, sum(r.ids, s.yearAgo)) : null,
        };
      }),
    }));
    out.push({
      areaId: area.id,
      area: area.name,
      zone: area.zone,
      today: dayString(today),
      ...(area.feature ? { feature: area.feature } : {}),
      periods,
      rows: tableRows,
      notes: notesOf(periods),
    });
  }
  return {
    areas: out,
    parameters: {
      weeks_start: 'Monday',
      as_of: input.asOf ?? null,
      min_percent_base: MIN_PERCENT_BASE,
      incidents: total,
      year_ago: '364 days earlier (same weekdays); year to date: the same dates',
    },
  };
}
