/** Ground truth: what the live API serves right now for an area and window, by cdid, with internal fields. */
import { CRIME_TYPES } from '../src-shared/crimeTypes';
import { PLANS } from '../src-shared/plans';
import { toMs } from './clock';
import type { Dataset } from './data/generate';
import { ALL_TYPES_MASK, findRows, type Area } from './data/query';
import { truthIncident, type TruthIncident } from './data/serialize';
import { DAY } from './data/timeZones';
import type { ResolvedKey } from './http/access';
import type { GroundTruthQuery } from './types';

function areaOf(q: GroundTruthQuery): Area {
  const circles = [q.radiusDeg, q.radiusMi].filter((r) => r !== undefined).length;
  if (circles + (q.polygon ? 1 : 0) !== 1)
    throw new Error('groundTruth needs exactly one of radiusDeg, radiusMi, polygon');
  if (q.polygon) {
    if (q.polygon.length < 3) throw new Error('groundTruth polygon needs at least 3 points');
    return { kind: 'polygon', points: q.polygon };
  }
  if (q.lat === undefined || q.lon === undefined) throw new Error('groundTruth circle needs lat and lon');
  if (q.radiusDeg !== undefined) return { kind: 'degrees', lat: q.lat, lon: q.lon, radius: q.radiusDeg };
  return { kind: 'miles', lat: q.lat, lon: q.lon, miles: q.radiusMi ?? 0 };
}

function windowDaysOf(q: GroundTruthQuery, keys: ReadonlyMap<string, ResolvedKey>): number {
  if (q.windowDays !== undefined) return q.windowDays;
  if (q.key !== undefined) {
    const k = keys.get(q.key);
    if (!k) throw new Error('groundTruth: unknown key');
    return k.windowDays;
  }
  if (q.plan !== undefined) return PLANS[q.plan].windowDays;
  const first = keys.values().next().value;
  return first?.windowDays ?? PLANS.developer.windowDays;
}

export function groundTruth(
  data: Dataset,
  now: number,
  keys: ReadonlyMap<string, ResolvedKey>,
  q: GroundTruthQuery,
): TruthIncident[] {
  const typeMask = q.types
    ? q.types.reduce((m, t) => m | (1 << (CRIME_TYPES as readonly string[]).indexOf(t)), 0)
    : ALL_TYPES_MASK;
  const found = findRows(data.store, areaOf(q), {
    now,
    windowStart: now - windowDaysOf(q, keys) * DAY,
    occurredFrom: q.since === undefined ? undefined : toMs(q.since),
    occurredTo: q.until === undefined ? undefined : toMs(q.until),
    typeMask,
  });
  return found.rows.sort((a, b) => a - b).map((r) => truthIncident(data.store, r));
}
