/**
 * Syncing: the plan before a sync (requests and minutes at the plan's rate), start and stop
 * (progress arrives as syncProgress events), and a description on demand, first in line.
 */
import { EngineError } from '../errors';
import { asEngineError, limitsOf, syncServiceOf } from '../sync/engineSync';
import type { HandlerGroup } from './handler';

export const syncHandlers = {
  planSync: async ({ areaIds }, ctx) => syncServiceOf(ctx).plan(areaIds, limitsOf(ctx)),

  startSync: async ({ areaIds, details }, ctx) => ({
    started: await asEngineError(() => syncServiceOf(ctx).start(areaIds, { details: details ?? false })),
  }),

  stopSync: async ({ areaIds }, ctx) => ({ stopped: syncServiceOf(ctx).stop(areaIds) }),

  fetchIncidentDetail: async ({ cdid }, ctx) => {
    const r = await asEngineError(() => syncServiceOf(ctx).detail(cdid));
    if (r.description === null) {
      throw new EngineError(
        'not_found',
        'The service no longer has this incident (it was removed or has left the plan window).',
      );
    }
    return { cdid, description: r.description, fetchedAt: r.fetchedAt };
  },
} satisfies HandlerGroup;
