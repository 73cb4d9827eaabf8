/**
 * Incident queries: counts, map points, the table, the incident panel and the history views, all
 * over the shared filter state. The work is in engine/query; each handler forwards to it with the
 * engine's query service.
 */
import type { EngineContext } from '../context';
import { incidentCalls as q, type QueryService, type Reading } from '../query/index';
import type { HandlerGroup } from './handler';

/** The engine's query service (built once at start, services.ts). */
const service = (ctx: EngineContext): QueryService => ctx.services.query;

/**
 * These calls answer the views; on a host whose views may not lag (the CLI, whose every answer is
 * output) the query service makes them results (query/service.ts `Reading`).
 */
const VIEW = 'view' satisfies Reading;

/**
 * Loads the snapshot ahead of the first query, so the app's first map and counts don't wait for it
 * (at 1M incidents a first read takes seconds; a saved snapshot a fraction of one).
 */
export function warmQueries(ctx: EngineContext): Promise<void> {
  return service(ctx)
    .snapshot('view')
    .then(
      () => undefined,
      (error: unknown) => ctx.log.warn('could not preload the incident snapshot', { error: String(error) }),
    );
}

export const incidentHandlers = {
  countIncidents: (input, ctx) => q.countIncidents(service(ctx), input, VIEW),
  getMapPoints: (input, ctx) => q.getMapPoints(service(ctx), input, VIEW),
  getMapSketch: (input, ctx) => q.getMapSketch(service(ctx), input, VIEW),
  listIncidents: (input, ctx) => q.listIncidents(service(ctx), input, VIEW),
  getIncident: (input, ctx) => q.getIncident(service(ctx), input),
  historySeries: (input, ctx) => q.historySeries(service(ctx), input, VIEW),
  comparePeriods: (input, ctx) => q.comparePeriods(service(ctx), input, VIEW),
  hourWeekdayGrid: (input, ctx) => q.hourWeekdayGrid(service(ctx), input, VIEW),
  topLocations: (input, ctx) => q.topLocations(service(ctx), input, VIEW),
  coverageBand: (input, ctx) => q.coverageBand(service(ctx), input, VIEW),
  getArchiveSummary: (_input, ctx) => q.getArchiveSummary(service(ctx), VIEW),
} satisfies HandlerGroup;
