/** Imports: preview a file (an upload, or the file the host's open dialog chose), run it, or discard it (engine/import). */
import type { EngineContext } from '../context';
import { Imports } from '../import/imports';
import type { HandlerGroup } from './handler';

const registries = new WeakMap<EngineContext, Imports>();

export function importsOf(ctx: EngineContext): Imports {
  let imports = registries.get(ctx);
  if (!imports) {
    const created = new Imports(ctx);
    registries.set(ctx, (imports = created));
    ctx.onClose(() => created.close());
  }
  return imports;
}

export const importHandlers = {
  previewImport: ({ source }, ctx) => importsOf(ctx).preview(source),
  runImport: ({ importId, onBadRows }, ctx) => importsOf(ctx).run(importId, onBadRows),
  discardImport: async ({ importId }, ctx) => ({ discarded: await importsOf(ctx).discard(importId) }),
} satisfies HandlerGroup;
