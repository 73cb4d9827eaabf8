/**
 * The map's street layer: what the configured basemap is (or why it cannot be drawn) and one tile
 * at a time. One BasemapService per engine, closed with it; the work is in engine/basemap.
 */
import { DEFAULT_BASEMAP } from '../../../src-shared/basemap';
import { hostFetch } from '../api/hostFetch';
import { createBasemapService, type BasemapService } from '../basemap/basemapService';
import { BasemapProblem } from '../basemap/tileSource';
import type { EngineContext } from '../context';
import { EngineError } from '../errors';
import type { HandlerGroup } from './handler';

const services = new WeakMap<EngineContext, BasemapService>();

function serviceOf(ctx: EngineContext): BasemapService {
  let service = services.get(ctx);
  if (!service) {
    const created = createBasemapService({
      dataDir: ctx.dataDir,
      setting: () => ctx.settings.get().basemap ?? DEFAULT_BASEMAP,
      fetch: hostFetch,
      userAgent: `Blotter/${ctx.version} (desktop crime-incident analysis; fetches only tiles its user views)`,
    });
    services.set(ctx, created);
    ctx.onClose(() => created.close());
    service = created;
  }
  return service;
}

export const basemapHandlers = {
  getBasemapInfo: (_input, ctx) => serviceOf(ctx).info(),

  getBasemapTile: async (coord, ctx) => {
    let tile;
    try {
      tile = await serviceOf(ctx).tile(coord);
    } catch (error) {
      if (error instanceof BasemapProblem) {
        throw new EngineError(error.kind === 'refused' ? 'bad_response' : 'offline', error.message);
      }
      throw error;
    }
    if (!tile) throw new EngineError('not_found', `No basemap tile at ${coord.z}/${coord.x}/${coord.y}.`);
    return tile;
  },
} satisfies HandlerGroup;
