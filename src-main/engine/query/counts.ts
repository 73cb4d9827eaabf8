/** Counts for the filter bar (the hot path of every filter change) and the archive summary. */
import { CRIME_TYPES, dayString } from '../../../src-shared/filters';
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
