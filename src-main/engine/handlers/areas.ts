/**
 * Areas: list, create (circle in miles or polygon, validated), rename, refresh interval, pause,
 * delete. Deleting removes the incidents the area brought in that no remaining area covers, never
 * imported ones (the rule is in sync/areaRemoval.ts and the contract).
 */
import { shapeProblems, type Shape } from '../../../src-shared/geo';
import { EngineError } from '../errors';
import { areaView } from '../sync/engineSync';
import type { SyncService } from '../sync/syncService';
import type { HandlerGroup } from './handler';
import { areaEditsFor } from '../office/areaEdits';

function existing(service: SyncService, id: number) {
  const a = service.areas.get(id);
  if (!a) throw new EngineError('not_found', 'That area no longer exists.');
  return a;
}

export const areaHandlers = {
  listAreas: async (_input, ctx) => {
    const s = ctx.services.sync;
    return { areas: s.areas.list().map((a) => areaView(s, a)) };
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
    return areaView(
      s,
      await areaEditsFor(ctx.services).create({ name, shape: geo, refreshMinutes }, Date.now()),
    );
  },

  renameArea: async ({ id, name }, ctx) => {
    const s = ctx.services.sync;
    existing(s, id);
    await areaEditsFor(ctx.services).rename(id, name);
    return areaView(s, existing(s, id));
  },

  setAreaRefresh: async ({ id, refreshMinutes }, ctx) => {
    const s = ctx.services.sync;
    existing(s, id);
    await areaEditsFor(ctx.services).setRefreshMinutes(id, refreshMinutes);
    return areaView(s, existing(s, id));
  },

  setAreaPaused: async ({ id, paused }, ctx) => {
    const s = ctx.services.sync;
    existing(s, id);
    await areaEditsFor(ctx.services).setPaused(id, paused);
    if (paused) s.stop([id]);
    return areaView(s, existing(s, id));
  },

  deleteArea: async ({ id, keepIncidents }, ctx) => {
    const s = ctx.services.sync;
    await s.stopAndWait([id]);
    const removed = await areaEditsFor(ctx.services).remove(id, keepIncidents ?? false);
    if (removed.incidentsRemoved > 0) ctx.emit({ type: 'incidentsChanged' });
    return removed;
  },
} satisfies HandlerGroup;
