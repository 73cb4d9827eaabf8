/**
 * Whether the opt-in 36-month history backfill can run, and what it costs, before it is asked for:
 * only once this base URL's v1 surface is verified, on Pro and Enterprise (the spec's plans for
 * /v1/history; a 403 there is remembered), and not while the area has a sync in progress (that run
 * finishes on its own surface first). The count: the months before the plan window at the area's
 * density inside it (cursorStrategy.ts historyEstimate).
 */
import type { PlanId } from '../../../src-shared/plans';
import type { HistoryPlan } from '../../../src-shared/sync';
import { hostOf } from '../api/outboundAddress';
import type { Db } from '../store/database';
import type { AreaRecord } from '../areas/areaStore';
import type { JobStore } from './jobStore';
import type { SyncLimits } from './planner';
import { historyEstimate, HISTORY_MONTHS } from './cursorStrategy';
import { readProfile } from './serverProfile';
import { resumableSurface } from './surfaceSelect';

export function planHistory(
  deps: { db: Db; jobs: JobStore; now: () => number },
  areas: readonly AreaRecord[],
  baseUrl: string,
  plan: PlanId,
  limits: SyncLimits,
): HistoryPlan {
  const list = areas.map((a) => {
    const requests = historyEstimate({ db: deps.db, limits }, a, deps.now());
    return { areaId: a.id, requests, minutes: requests / limits.ratePerMinute };
  });
  const requests = list.reduce((n, a) => n + a.requests, 0);
  const base = { areas: list, requests, minutes: requests / limits.ratePerMinute, months: HISTORY_MONTHS };
  const no = (reason: string): HistoryPlan => ({ ...base, available: false, reason });
  const rec = readProfile(deps.db, baseUrl).surface;
  if (plan === 'developer')
    return no('The 36-month history (/v1/history) comes with the Pro and Enterprise plans.');
  if (rec?.state !== 'verified') {
    return no(
      rec
        ? `The history comes through the v1 surface, which Blotter does not use at ${hostOf(baseUrl)}: ${rec.reason}`
        : `The history comes through the v1 surface, which has not been probed at ${hostOf(baseUrl)} yet; sync once first.`,
    );
  }
  if (rec.history === false)
    return no('The service refused /v1/history for this key (the plan does not include it).');
  const busy = areas.find((a) => resumableSurface(deps, a.id) !== null);
  if (busy) return no(`Area "${busy.name}" has a sync in progress; it finishes first.`);
  return {
    ...base,
    available: true,
    reason: `At most about ${requests} requests for the ${HISTORY_MONTHS} months before the plan window, at the area's density now (fewer where the service holds less).`,
  };
}
