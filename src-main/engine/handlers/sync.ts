/**
 * Syncing: the plan before a sync (requests and minutes at the plan's rate), start and stop
 * (progress arrives as syncProgress events), and a description on demand, first in line.
 */
import { EngineError } from '../errors';
import { asEngineError, connectionOf, limitsOf } from '../sync/engineSync';
import type { HandlerGroup } from './handler';

export const syncHandlers = {
  planSync: async ({ areaIds }, ctx) => ctx.services.sync.plan(areaIds, limitsOf(ctx)),

  planHistory: async ({ areaIds }, ctx) => {
    const settings = ctx.settings.get();
    if (!settings.baseUrl)
      throw new EngineError('bad_input', 'Set the service’s base URL in Settings first.');
    return ctx.services.sync.planHistory(areaIds, settings.baseUrl, settings.plan, limitsOf(ctx));
  },

  // Office mode: the sync leads the area (lease, shared limiter, pages to PostgreSQL) or follows
  // its leader, pulling (engine/office/leader.ts): nothing is written here but through the replica.
  startSync: async ({ areaIds, details, history }, ctx) => {
    if (history) requireHistory(ctx, areaIds);
    return {
      started: await asEngineError(() =>
        ctx.services.sync.start(areaIds, { details: details ?? false, ...(history ? { history } : {}) }),
      ),
    };
  },

  stopSync: async ({ areaIds }, ctx) => ({ stopped: ctx.services.sync.stop(areaIds) }),

  // The CLI's sync: the areas one after another, answered when all finished (stopSync cancels).
  runSync: async ({ areaIds, details, history }, ctx) => {
    const sync = ctx.services.sync;
    if (history) requireHistory(ctx, areaIds);
    const areas = areaIds.map((id) => {
      const area = sync.areas.get(id);
      if (!area) throw new EngineError('not_found', `There is no area ${id}.`);
      return area;
    });
    const conn = await asEngineError(() => connectionOf(ctx, ctx.services.fetch));
    const runs = await asEngineError(() =>
      sync.syncAreas(areas, conn, {
        depth: 'deep',
        details: details ?? false,
        ...(history ? { history } : {}),
      }),
    );
    return {
      runs: runs.map((r) => ({
        areaId: r.areaId,
        runId: r.runId,
        kind: r.kind,
        state: r.state,
        new: r.new,
        updated: r.updated,
        removed: r.removed,
        lowerBound: r.lowerBound,
        fairLowerBound: r.fairLowerBound ?? null,
        incomplete: r.incomplete,
        ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
      })),
      ...sync.stats(),
      fairLowerBound: sync.fairLowerBound(runs),
    };
  },

  fetchIncidentDetail: async ({ cdid }, ctx) => {
    const r = await asEngineError(() => ctx.services.sync.detail(cdid));
    if (r.description === null) {
      throw new EngineError(
        'not_found',
        'The service no longer has this incident (it was removed or has left the plan window).',
      );
    }
    return { cdid, description: r.description, fetchedAt: r.fetchedAt };
  },
} satisfies HandlerGroup;

/** The history backfill runs only when planHistory says it can; else the reason, as a refusal. */
function requireHistory(ctx: Parameters<(typeof syncHandlers)['planSync']>[1], areaIds?: number[]): void {
  const settings = ctx.settings.get();
  if (!settings.baseUrl) throw new EngineError('bad_input', 'Set the service’s base URL in Settings first.');
  const plan = ctx.services.sync.planHistory(areaIds, settings.baseUrl, settings.plan, limitsOf(ctx));
  if (!plan.available) throw new EngineError('bad_input', plan.reason);
}
