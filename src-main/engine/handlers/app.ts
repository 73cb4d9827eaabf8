/** About this app: version, host and data folder. */
import type { HandlerGroup } from './handler';

export const appHandlers = {
  getAppInfo: async (_input, ctx) => ({ version: ctx.version, host: ctx.host, dataDir: ctx.dataDir }),
} satisfies HandlerGroup;
