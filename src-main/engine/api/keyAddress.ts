/**
 * Which address the stored API key may be sent to. The key is bound to the origin of the base URL it
 * was entered with (secrets/secretOrigin.ts: a row `apiKeyOrigin` in the settings table, never
 * shown to a page). Changing the base URL does not move the key: until the new address is
 * confirmed, the key is never sent there and calls that would send it answer `base_url_unconfirmed`. Confirmation is:
 * - any call that carries the key itself (testConnection with a key, setApiKey): whoever typed the
 *   key chose where it goes;
 * - Electron: `confirmBaseUrl`, which the main process forwards only after a dialog naming the host;
 * - CLI: `--base-url` (the CLI builds its own connection; nothing is stored).
 *
 * A data folder from before this rule has no row: the base URL already set is taken as confirmed
 * the first time, before any change can be made (`ensureBound`).
 */
import type { EngineCore } from '../core';
import { EngineError } from '../errors';
import { originBinding } from '../secrets/secretOrigin';
import { hostOf, originOf } from './outboundAddress';

/** The one rule of a secret bound to its whole origin (secrets/secretOrigin.ts), for the API key. */
const binding = originBinding('apiKeyOrigin');

type Ctx = Pick<EngineCore, 'db' | 'settings' | 'host'>;

/** The origin the key is bound to: null for none; undefined when no binding was ever written. */
export function boundOrigin(ctx: Pick<EngineCore, 'db'>): string | null | undefined {
  return binding.bound(ctx.db);
}

/** Binds the key to `baseUrl`'s origin (null: to no address). */
export function bindKey(ctx: Pick<EngineCore, 'db'>, baseUrl: string | null): void {
  binding.bind(ctx.db, baseUrl ? originOf(baseUrl) : null);
}

/** A folder from before the binding: the base URL it already has is the key's. Call before any change. */
export function ensureBound(ctx: Ctx): void {
  binding.ensure(ctx.db, () => {
    const { baseUrl } = ctx.settings.get();
    return baseUrl ? originOf(baseUrl) : null;
  });
}

/** Whether the stored key may go to `baseUrl`. */
export function keyMayGoTo(ctx: Ctx, baseUrl: string): boolean {
  ensureBound(ctx);
  return binding.mayGoTo(ctx.db, originOf(baseUrl));
}

/**
 * For the settings view: false when a key entered for one address would now have to go to another
 * (the page then offers to confirm). A key never entered with an address (bound to none) is not
 * flagged here — it is usually no key at all — but is refused all the same when it would be sent.
 */
export function baseUrlConfirmed(ctx: Ctx): boolean {
  const { baseUrl } = ctx.settings.get();
  return baseUrl === null || boundOrigin(ctx) === null || keyMayGoTo(ctx, baseUrl);
}

/** How to confirm on this host, in plain words. */
function howToConfirm(host: EngineCore['host'], to: string): string {
  if (host === 'electron')
    return `Confirm ${to} in Settings › Connection, or enter the API key again with it.`;
  if (host === 'cli') return `Pass --base-url to use ${to}.`;
  return `To use ${to}, enter the API key again with this base URL (Settings › API key, or Test connection with the key).`;
}

export function unconfirmed(ctx: Pick<EngineCore, 'host'>, baseUrl: string): EngineError {
  const to = hostOf(baseUrl);
  return new EngineError(
    'base_url_unconfirmed',
    `The stored API key has not been confirmed for ${to}: the base URL changed after the key was entered, and Blotter does not send the key to a new address until you confirm it. ${howToConfirm(ctx.host, to)}`,
  );
}

/** Throws `base_url_unconfirmed` unless the stored key may go to `baseUrl`. */
export function requireKeyMayGoTo(ctx: Ctx, baseUrl: string): void {
  if (!keyMayGoTo(ctx, baseUrl)) throw unconfirmed(ctx, baseUrl);
}
