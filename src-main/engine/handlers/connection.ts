/**
 * "Test connection" (the welcome screen, and Settings): one cheap request through the API client
 * and the key's rate limiter (connectionCheck.ts) with what the user entered, and only then store
 * it — settings in the data folder, the key in the keychain and nowhere else. Stored on a 200, or
 * on a 403 (the key is right; this computer's IP is not registered yet); never on a 401, a network
 * failure or an answer that is not the API's, unless the user chose "Save anyway" (`saveAnyway`).
 * A stored key goes only to the base URL it was confirmed for (api/keyAddress.ts): testing a new
 * base URL without re-entering the key answers `base_url_unconfirmed` and sends nothing.
 * The answer says what worked or exactly what is wrong; the key never comes back.
 */
import type { CallInput } from '../../../src-shared/contract';
import { planLimits } from '../../../src-shared/plans';
import { Settings, viewOf } from '../../../src-shared/settings';
import { baseUrlConfirmed, bindKey, ensureBound, keyMayGoTo, unconfirmed } from '../api/keyAddress';
import { hostOf, originOf } from '../api/outboundAddress';
import type { FetchLike } from '../api/source';
import type { EngineContext } from '../context';
import { EngineError } from '../errors';
import { keyStatus, readApiKey, storeApiKey } from '../secrets/apiKey';
import { KeychainUnavailableError } from '../secrets/secretStore';
import { checkConnection } from '../api/connectionCheck';
import type { HandlerGroup } from './handler';

export const NO_BASE_URL =
  'Enter the base URL of the Crime Incident Data API, such as https://api.example.com.';

type Patch = Omit<CallInput<'testConnection'>, 'key' | 'saveAnyway'>;

/** The settings view with whether a stored key may go to its base URL. */
export function settingsView(ctx: EngineContext) {
  return viewOf(ctx.settings.get(), baseUrlConfirmed(ctx));
}

/** Saves the patch and (when given) the key, binding the key to the base URL it was entered with. */
async function save(ctx: EngineContext, patch: Patch, key: string | undefined): Promise<void> {
  if (Object.values(patch).some((value) => value !== undefined)) {
    ctx.settings.update(patch);
  }
  if (key !== undefined) {
    await storeApiKey(ctx.secrets, ctx.keyAccount, key);
    bindKey(ctx, ctx.settings.get().baseUrl);
    ctx.log.info('API key stored in the keychain (connection test)', { account: ctx.keyAccount });
  }
  ctx.emit({ type: 'settingsChanged', settings: settingsView(ctx) });
  if (key !== undefined) {
    ctx.emit({ type: 'keyStatusChanged', status: await keyStatus(ctx.secrets, ctx.keyAccount) });
  }
}

export const connectionHandlers = {
  testConnection: async ({ key, saveAnyway, ...patch }, ctx) => {
    ensureBound(ctx);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const settings = Settings.parse({ ...ctx.settings.get(), ...defined });
    if (!settings.baseUrl) {
      throw new EngineError('bad_input', NO_BASE_URL, [{ path: 'baseUrl', message: NO_BASE_URL }]);
    }
    const baseUrl = settings.baseUrl;
    if (key !== undefined) {
      const keychain = await ctx.secrets.probe();
      if (!keychain.available) throw new KeychainUnavailableError(keychain);
    }
    if (saveAnyway) await save(ctx, patch, key);
    // Without the key re-entered, the stored key goes only where it was confirmed to go.
    if (key === undefined && !keyMayGoTo(ctx, baseUrl)) {
      await readApiKey(ctx.secrets, ctx.keyAccount); // no key at all: say that first
      ctx.log.info('connection test refused: base URL not confirmed for the key', { host: hostOf(baseUrl) });
      throw unconfirmed(ctx, baseUrl);
    }
    const apiKey = key ?? (await readApiKey(ctx.secrets, ctx.keyAccount));
    let fetch: FetchLike;
    try {
      fetch = await ctx.services.fetch();
    } catch (error) {
      throw new EngineError('offline', error instanceof Error ? error.message : String(error));
    }
    try {
      const result = await checkConnection({
        baseUrl,
        key: apiKey,
        ratePerMinute: planLimits(settings.plan, settings).ratePerMinute,
        fetch,
      });
      ctx.log.info('connection test passed', { host: result.host, ms: result.ms });
      ctx.services.sync.reportReachability(true, baseUrl);
      if (!saveAnyway) await save(ctx, patch, key);
      return result;
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      ctx.log.info('connection test failed', { code: error.code, why: error.message });
      // Any HTTP answer (a 401, a 403…) means the API is reachable; only no answer is offline.
      ctx.services.sync.reportReachability(error.code !== 'offline', baseUrl);
      if (saveAnyway) throw error;
      if (error.code === 'ip_not_allowed') {
        await save(ctx, patch, key);
        throw new EngineError(
          'ip_not_allowed',
          `${error.message} Blotter saved the base URL${key !== undefined ? ' and the key' : ''}: they will work once the IP address is registered.`,
        );
      }
      throw error; // nothing was saved; the form offers "Save anyway"
    }
  },

  confirmBaseUrl: async ({ baseUrl }, ctx) => {
    ensureBound(ctx);
    const current = ctx.settings.get().baseUrl;
    // Electron asks in a dialog first; the CLI's user typed the address (--base-url).
    if (ctx.host === 'web') throw unconfirmed(ctx, current ?? baseUrl);
    if (!current || originOf(current) !== originOf(baseUrl)) {
      throw new EngineError(
        'bad_input',
        'The base URL changed while you were confirming it. Save it again, then confirm.',
      );
    }
    // Reached through Electron's main process after its dialog, or the CLI's typed address.
    bindKey(ctx, current);
    ctx.log.info('base URL confirmed for the API key', { host: hostOf(current) });
    const view = settingsView(ctx);
    ctx.emit({ type: 'settingsChanged', settings: view });
    return view;
  },

  getConnectivity: async (_input, ctx) => ctx.services.sync.connectivityNow(),
} satisfies HandlerGroup;
