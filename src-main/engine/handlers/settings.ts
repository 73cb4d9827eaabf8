/**
 * Reading and changing the user's settings; every change is announced with `settingsChanged`. A new
 * base URL does not take the stored API key with it: the view's `baseUrlConfirmed` says whether the
 * key may go there (api/keyAddress.ts; the key is bound to the address it was entered with).
 */
import { ensureBound } from '../api/keyAddress';
import { settingsView } from './connection';
import type { HandlerGroup } from './handler';

export const settingsHandlers = {
  getSettings: async (_input, ctx) => settingsView(ctx),

  updateSettings: async (patch, ctx) => {
    ensureBound(ctx); // a folder from before the binding keeps its key on the address it had
    ctx.settings.update(patch);
    const settings = settingsView(ctx);
    ctx.emit({ type: 'settingsChanged', settings });
    return settings;
  },
} satisfies HandlerGroup;
