/**
 * Areas: list, create (circle in miles or polygon, validated), rename, refresh interval, pause,
 * delete. Deleting removes the incidents the area brought in that no remaining area covers, never
 * imported ones (the rule is in areas/areaRemoval.ts and the contract). Every edit goes through
 * `ctx.services.areas`, the folder's own or the office's by its mode (areas/areaEdits.ts).
 */
import { shapeProblems, type Shape } from '../../../src-shared/geo';
import { EngineError } from '../errors';
import { areaView } from '../sync/engineSync';
import type { AreaEdits } from '../areas/areaEdits';
import type { HandlerGroup } from './handler';

function existing(areas: AreaEdits, id: number) {
  const a = areas.get(id);
  if (!a) throw new EngineError('not_found', 'That area no longer exists.');
  return a;
}

export const areaHandlers = {
  listAreas: async (_input, ctx) => {
    const s = ctx.services.sync;
    return { areas: ctx.services.areas.list().map((a) => areaView(s, a)) };
  },

  createArea: async ({ name, shape, refreshMinutes }, ctx) => {
    const s = ctx.services.sync;
    const geo: Shape =
      shape.kind === 'circle'
        ? shape
        : { kind: 'polygon', points: shape.points.map(([a, b]) => [a, b] as const) };
    const problems = shapeProblems(geo);
    if (problems.length > 0) {
      throw new EngineError(
        'bad_input',
        problems.join(' '),
        problems.map((message) => ({ path: 'shape', message })),
      );
    }
    // Office mode: the area is the office's (created in PostgreSQL, back here by the pull).
    return areaView(s, await ctx.services.areas.create({ name, shape: geo, refreshMinutes }, Date.now()));
  },

  renameArea: async ({ id, name }, ctx) => {
    const s = ctx.services.sync;
    const areas = ctx.services.areas;
    existing(areas, id);
    await areas.rename(id, name);
    return areaView(s, existing(areas, id));
  },

  setAreaRefresh: async ({ id, refreshMinutes }, ctx) => {
    const s = ctx.services.sync;
    const areas = ctx.services.areas;
    existing(areas, id);
    await areas.setRefreshMinutes(id, refreshMinutes);
    return areaView(s, existing(areas, id));
  },

  setAreaPaused: async ({ id, paused }, ctx) => {
    const s = ctx.services.sync;
    const areas = ctx.services.areas;
    existing(areas, id);
    await areas.setPaused(id, paused);
    if (paused) s.stop([id]);
    return areaView(s, existing(areas, id));
  },

  deleteArea: async ({ id, keepIncidents }, ctx) => {
    const s = ctx.services.sync;
    await s.stopAndWait([id]);
    const removed = await ctx.services.areas.remove(id, keepIncidents ?? false);
    if (removed.incidentsRemoved > 0) ctx.emit({ type: 'incidentsChanged' });
    return removed;
  },
} satisfies HandlerGroup;
