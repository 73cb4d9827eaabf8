/** Counts for the filter bar (the hot path of every filter change) and the archive summary. */
import { CRIME_TYPES, dayNumber, dayString, type DayRange, type Filters } from '../../../src-shared/filters';
import type { ArchiveSummary, CountResult } from '../../../src-shared/incidentQueries';
import type { Resolved } from './service';
import { GONE, REMOVED, type Snapshot } from './snapshot';

/** Counts by type name: every standard type and every type the archive holds, zeros included. */
export function countsByType(snapshot: Snapshot, byTypeId: ArrayLike<number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of CRIME_TYPES) out[t] = 0;
  snapshot.types.values.forEach((name, id) => (out[name] = byTypeId[id] ?? 0));
  return out;
}

export function countIncidents({ snapshot, set, range }: Resolved, computedMs?: number): CountResult {
  return {
    total: set.count,
    byType: countsByType(snapshot, set.byType),
    range,
    ...(computedMs === undefined ? {} : { computedMs: Math.round(computedMs * 100) / 100 }),
  };
}

/** Every incident held (removed ones counted apart), its date span and its types by count. */
export function archiveSummary(snapshot: Snapshot): ArchiveSummary {
  const byType = new Uint32Array(Math.max(1, snapshot.types.size));
  let total = 0;
  let removed = 0;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < snapshot.size; i++) {
    const state = snapshot.state[i] as number;
    if (state === GONE) continue;
    if (state === REMOVED) {
      removed++;
      continue;
    }
    total++;
    const t = snapshot.type[i] as number;
    byType[t] = (byType[t] as number) + 1;
    const d = snapshot.day[i] as number;
    if (d < first) first = d;
    if (d > last) last = d;
  }
  const types = snapshot.types.values
    .map((type, id) => ({ type, count: byType[id] ?? 0 }))
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1));
  return {
    total,
    removed,
    firstDay: total ? dayString(first) : null,
    lastDay: total ? dayString(last) : null,
    types,
  };
}

/**
 * What the saved snapshot's header carries for answers before its columns are in memory (a large
 * file on a cold disk takes a while): the archive summary, and live incidents per local day and
 * type — enough for the counts of any filter of dates and types.
 */
export type CountFacts = {
  summary: ArchiveSummary;
  types: string[];
  /** Day number of days[0]. */
  firstDay: number;
  /** Live incidents of day firstDay + d and type t at d · types.length + t. */
  days: number[];
};

export function countFactsOf(snapshot: Snapshot): CountFacts {
  const summary = archiveSummary(snapshot);
  const T = snapshot.types.size;
  if (summary.total === 0 || !summary.firstDay || !summary.lastDay)
    return { summary, types: snapshot.types.values, firstDay: 0, days: [] };
  const first = dayNumber(summary.firstDay);
  const span = dayNumber(summary.lastDay) - first + 1;
  const days = new Uint32Array(span * T);
  for (let i = 0; i < snapshot.size; i++) {
    if (snapshot.state[i] !== 0) continue; // LIVE only
    const k = ((snapshot.day[i] as number) - first) * T + (snapshot.type[i] as number);
    days[k] = (days[k] as number) + 1;
  }
  return { summary, types: snapshot.types.values, firstDay: first, days: Array.from(days) };
}

/** Whether the facts answer these filters (dates and types only, removed ones left out). */
export function factsAnswer(filters: Filters): boolean {
  const allHours =
    !filters.hours ||
    filters.hours[0] === filters.hours[1] % 24 ||
    (filters.hours[0] === 0 && filters.hours[1] === 24);
  const allDays = !filters.weekdays || filters.weekdays.length === 0 || filters.weekdays.length === 7;
  return (
    !filters.text &&
    !filters.area &&
    !filters.feature &&
    !filters.cdids &&
    !filters.focus &&
    !filters.includeRemoved &&
    allHours &&
    allDays
  );
}

/** countIncidents from the facts (the caller checked `factsAnswer`). */
export function countFromFacts(facts: CountFacts, filters: Filters, range: DayRange): CountResult {
  const T = facts.types.length;
  const wanted = filters.types?.length ? new Set(filters.types.map((t) => t.toLowerCase())) : null;
  const keep = facts.types.map((t) => !wanted || wanted.has(t.toLowerCase()));
  const byId = new Array<number>(T).fill(0);
  const span = T ? facts.days.length / T : 0;
  const from = Math.max(0, range.from ? dayNumber(range.from) - facts.firstDay : 0);
  const to = Math.min(span - 1, range.to ? dayNumber(range.to) - facts.firstDay : span - 1);
  let total = 0;
  for (let d = from; d <= to; d++) {
    for (let t = 0; t < T; t++) {
      if (!keep[t]) continue;
      const n = facts.days[d * T + t] as number;
      byId[t] = (byId[t] as number) + n;
      total += n;
    }
  }
  const byType: Record<string, number> = {};
  for (const t of CRIME_TYPES) byType[t] = 0;
  facts.types.forEach((name, id) => (byType[name] = byId[id] ?? 0));
  return { total, byType, range };
}
