/**
 * The API key: set, remove, and whether one is set. The key goes to the OS keychain and nowhere
 * else; the renderer only learns `KeyStatus`. Every change is announced with `keyStatusChanged`.
 */
import type { KeyStatus } from '../../../src-shared/secrets';
import { bindKey, ensureBound } from '../api/keyAddress';
import type { EngineContext } from '../context';
import { deleteApiKey, keyStatus, storeApiKey } from '../secrets/apiKey';
import { settingsView } from './connection';
import type { HandlerGroup } from './handler';

async function announce(ctx: EngineContext): Promise<KeyStatus> {
  const status = await keyStatus(ctx.secrets, ctx.keyAccount);
  ctx.emit({ type: 'keyStatusChanged', status });
  return status;
}

export const apiKeyHandlers = {
  getKeyStatus: async (_input, ctx) => keyStatus(ctx.secrets, ctx.keyAccount),

  setApiKey: async ({ key }, ctx) => {
    ensureBound(ctx);
    await storeApiKey(ctx.secrets, ctx.keyAccount, key);
    bindKey(ctx, ctx.settings.get().baseUrl); // re-entered with the base URL set: it may go there
    ctx.log.info('API key stored in the keychain', { account: ctx.keyAccount });
    ctx.emit({ type: 'settingsChanged', settings: settingsView(ctx) });
    return announce(ctx);
  },

  removeApiKey: async (_input, ctx) => {
    await deleteApiKey(ctx.secrets, ctx.keyAccount);
    bindKey(ctx, null);
    ctx.log.info('API key removed from the keychain', { account: ctx.keyAccount });
    return announce(ctx);
  },
} satisfies HandlerGroup;
