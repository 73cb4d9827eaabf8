/**
 * "Test connection" (the welcome screen, and Settings): store what the user entered — settings in
 * the data folder, the key in the keychain and nowhere else — then one cheap request through the
 * API client and the key's rate limiter (connectionCheck.ts). The answer says what worked or
 * exactly what is wrong; the key never comes back.
 */
import { planLimits } from '../../../src-shared/plans';
import { viewOf } from '../../../src-shared/settings';
import { hostFetch } from '../api/hostFetch';
import type { FetchLike } from '../api/source';
import { EngineError } from '../errors';
import { keyStatus, readApiKey, storeApiKey } from '../secrets/apiKey';
import { syncServiceOf } from '../sync/engineSync';
import { checkConnection } from './connectionCheck';
import type { HandlerGroup } from './handler';

export const NO_BASE_URL =
  'Enter the base URL of the Crime Incident Data API, such as https://api.example.com.';

export const connectionHandlers = {
  testConnection: async ({ key, ...patch }, ctx) => {
    if (Object.values(patch).some((value) => value !== undefined)) {
      const settings = viewOf(ctx.settings.update(patch));
      ctx.emit({ type: 'settingsChanged', settings });
    }
    if (key !== undefined) {
      await storeApiKey(ctx.secrets, ctx.keyAccount, key);
      ctx.log.info('API key stored in the keychain (connection test)', { account: ctx.keyAccount });
      ctx.emit({ type: 'keyStatusChanged', status: await keyStatus(ctx.secrets, ctx.keyAccount) });
    }
    const settings = ctx.settings.get();
    if (!settings.baseUrl) {
      throw new EngineError('bad_input', NO_BASE_URL, [{ path: 'baseUrl', message: NO_BASE_URL }]);
    }
    const apiKey = await readApiKey(ctx.secrets, ctx.keyAccount);
    let fetch: FetchLike;
    try {
      fetch = await hostFetch();
    } catch (error) {
      throw new EngineError('offline', error instanceof Error ? error.message : String(error));
    }
    try {
      const result = await checkConnection({
        baseUrl: settings.baseUrl,
        key: apiKey,
        ratePerMinute: planLimits(settings.plan, settings).ratePerMinute,
        fetch,
      });
      ctx.log.info('connection test passed', { host: result.host, ms: result.ms });
      syncServiceOf(ctx).reportReachability(true, settings.baseUrl);
      return result;
    } catch (error) {
      if (error instanceof EngineError) {
        ctx.log.info('connection test failed', { code: error.code, why: error.message });
        // Any HTTP answer (a 401, a 403…) means the API is reachable; only no answer is offline.
        syncServiceOf(ctx).reportReachability(error.code !== 'offline', settings.baseUrl);
      }
      throw error;
    }
  },
} satisfies HandlerGroup;
