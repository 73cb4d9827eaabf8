/**
 * Boundaries (engine/boundaries): preview a boundary file, keep it as a reference layer or make
 * areas of its polygons (through the area store, like createArea, so they sync like drawn ones),
 * list, draw, rename and delete layers, count incidents near a layer's features.
 */
import { EngineError } from '../errors';
import { layerView } from '../boundaries/service';
import { areaView } from '../sync/engineSync';
import type { HandlerGroup } from './handler';

export const layerHandlers = {
  previewBoundaries: async ({ source }, ctx) => ctx.services.layers.preview(source),

  cancelBoundaryPreview: async (_input, ctx) => ({ cancelled: ctx.services.layers.cancelPreview() }),

  importLayer: async ({ previewId, name, nameField }, ctx) =>
    ctx.services.layers.importLayer(previewId, name, nameField),

  areasFromBoundaries: async ({ previewId, nameField, indexes, names }, ctx) => {
    const layers = ctx.services.layers;
    const shapes = await layers.areaShapes(previewId, nameField, indexes, names);
    const s = ctx.services.sync;
    // Office mode: areas are the office's, created in PostgreSQL and back here by the pull, as
    // createArea's; a standalone folder makes them all in one transaction.
    const made = await ctx.services.areas.createAll(
      shapes.map((a) => ({ name: a.name, shape: a.shape })),
      Date.now(),
    );
    layers.discard(previewId);
    return {
      areas: made.map((a) => areaView(s, a)),
      notes: shapes.flatMap((a) => (a.note ? [a.note] : [])),
    };
  },

  discardBoundaries: async ({ previewId }, ctx) => ({ discarded: ctx.services.layers.discard(previewId) }),

  listLayers: async (_input, ctx) => ({ layers: ctx.services.layers.store.list().map(layerView) }),

  getLayerFeatures: async ({ layerId }, ctx) => {
    const layers = ctx.services.layers;
    const layer = layers.layer(layerId);
    return { layer: layerView(layer), ...(await layers.packedLayer(layerId)) };
  },

  renameLayer: async ({ layerId, name }, ctx) => {
    const layers = ctx.services.layers;
    layers.layer(layerId);
    layers.store.rename(layerId, name);
    return layerView(layers.layer(layerId));
  },

  deleteLayer: async ({ layerId }, ctx) => {
    const deleted = ctx.services.layers.store.remove(layerId);
    if (!deleted) throw new EngineError('not_found', 'That reference layer no longer exists.');
    return { deleted };
  },

  countNearLayer: async ({ filters, layerId, bufferM }, ctx) =>
    ctx.services.layers.countNear(filters, layerId, bufferM),
} satisfies HandlerGroup;
