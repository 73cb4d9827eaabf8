/**
 * The one counts call of the workspace: countIncidents under every filter but the types, made once
 * per filter state and archive version and shared by whoever asks (the filter bar's chips and
 * total, the map's legend), so they cannot disagree and the engine counts once. The legend's
 * figures are derived from it: the chosen types' counts and their total.
 */
import type { Filters } from '../../src-shared/filters';
import type { CountResult } from '../../src-shared/incidentQueries';
import type { Client } from '../bridge/client';
import { totalOf, withoutTypes } from './filterModel';

const latest = new WeakMap<Client, { key: string; answer: Promise<CountResult> }>();

/** countIncidents for `filters` without their types; the same promise for the same filters and version. */
export function countsFor(client: Client, filters: Filters, dataVersion: number): Promise<CountResult> {
  const query = withoutTypes(filters);
  const key = `${dataVersion}|${JSON.stringify(query)}`;
  const hit = latest.get(client);
  if (hit?.key === key) return hit.answer;
  const answer = client.call('countIncidents', { filters: query });
  latest.set(client, { key, answer });
  answer.catch(() => {
    if (latest.get(client)?.answer === answer) latest.delete(client); // the next ask tries again
  });
  return answer;
}

export type LegendCounts = { byType: Record<string, number> | null; total: number | null };

/** The legend's figures from the shared counts: the chosen types only (every type when none is chosen). */
export function legendCountsOf(
  byType: Record<string, number>,
  types: readonly string[] | undefined,
): LegendCounts {
  const chosen = types && types.length > 0 ? new Set(types) : null;
  const shown = chosen
    ? Object.fromEntries(Object.entries(byType).filter(([type]) => chosen.has(type)))
    : byType;
  return { byType: shown, total: totalOf(byType, types) };
}
