/** Imports: preview a file (an upload, or the file the host's open dialog chose), run it, or discard it (engine/import). */
import type { HandlerGroup } from './handler';

export const importHandlers = {
  previewImport: ({ source, mapping }, ctx) => ctx.services.imports.preview(source, mapping),
  runImport: ({ importId, onBadRows, place }, ctx) => ctx.services.imports.run(importId, onBadRows, place),
  discardImport: async ({ importId }, ctx) => ({ discarded: await ctx.services.imports.discard(importId) }),
  cancelImport: async (_input, ctx) => ({ cancelled: ctx.services.imports.cancel() }),
  inspectImport: ({ source }, ctx) => ctx.services.imports.inspect(source),
  previewMapped: ({ fileId, mapping }, ctx) => ctx.services.imports.previewMapped(fileId, mapping),
  saveMapping: ({ fileId, mapping }, ctx) => ctx.services.imports.saveMapping(fileId, mapping),
  listMappings: async (_input, ctx) => ctx.services.imports.listMappings(),
  getMapping: async ({ name }, ctx) => ctx.services.imports.savedMapping(name),
} satisfies HandlerGroup;
