/** Reading and changing the user's settings; every change is announced with `settingsChanged`. */
import { viewOf } from '../../../src-shared/settings';
import type { HandlerGroup } from './handler';

export const settingsHandlers = {
  getSettings: async (_input, ctx) => viewOf(ctx.settings.get()),

  updateSettings: async (patch, ctx) => {
    const settings = viewOf(ctx.settings.update(patch));
    ctx.emit({ type: 'settingsChanged', settings });
    return settings;
  },
} satisfies HandlerGroup;
