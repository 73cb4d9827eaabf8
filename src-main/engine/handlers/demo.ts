/**
 * Demo mode is run by the hosts, not the engine: the desktop app and the web host answer these
 * calls themselves (src-main/demo) before a call reaches the engine, because starting the demo
 * means starting the simulator and switching to another data folder. An engine with no such host
 * in front of it (the CLI, tests) answers here.
 */
import { EngineError } from '../errors';
import type { HandlerGroup } from './handler';

const HOST_ONLY =
  'Demo mode runs in the Blotter app only: start it with npm start -- --demo, or npm run web -- --demo.';

export const demoHandlers = {
  getDemoStatus: async () => ({
    active: false,
    available: false,
    dataDir: null,
    city: null,
    areaId: null,
    keyStorage: null,
  }),
  startDemo: async () => {
    throw new EngineError('unknown_call', HOST_ONLY);
  },
  removeDemo: async () => {
    throw new EngineError('unknown_call', HOST_ONLY);
  },
} satisfies HandlerGroup;
