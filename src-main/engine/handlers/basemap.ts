/**
 * The map's street layer: what the configured basemap is (or why it cannot be drawn) and one tile
 * at a time, from the engine's basemap service (engine/basemap; built once in services.ts).
 */
import { BasemapProblem } from '../basemap/tileSource';
import { EngineError } from '../errors';
import type { HandlerGroup } from './handler';

export const basemapHandlers = {
  getBasemapInfo: (_input, ctx) => ctx.services.basemap.info(),

  getBasemapTile: async (coord, ctx) => {
    let tile;
    try {
      tile = await ctx.services.basemap.tile(coord);
    } catch (error) {
      if (error instanceof BasemapProblem) {
        throw new EngineError(error.kind === 'refused' ? 'bad_response' : 'offline', error.message);
      }
      throw error;
    }
    if (!tile) throw new EngineError('not_found', `No basemap tile at ${coord.z}/${coord.x}/${coord.y}.`);
    return tile;
  },

  estimateBasemapDownload: (input, ctx) => ctx.services.basemap.downloads.estimate(input),
  startBasemapDownload: (input, ctx) => ctx.services.basemap.downloads.start(input),
  cancelBasemapDownload: async (_input, ctx) => ({ cancelled: ctx.services.basemap.downloads.cancel() }),
  getBasemapCoverage: (_input, ctx) => ctx.services.basemap.coverage(),
} satisfies HandlerGroup;
