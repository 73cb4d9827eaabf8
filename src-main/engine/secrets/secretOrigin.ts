/**
 * Where a stored secret may go (DESIGN: "A secret is bound to its whole origin"). A secret is bound
 * to the origin it was entered for — scheme, host and port, as one string — in a row of the
 * settings table that no page sees; it is sent only there. Changing any part of the address makes
 * a new address that would receive the secret, and the secret follows only once that is confirmed:
 * by typing the secret again with it, or by the host's own confirmation (Electron: a main-process
 * dialog naming the address; CLI: the flag). The API key (api/keyAddress.ts) and the SMTP password
 * (alerts/mailAddress.ts) each keep one binding under this one rule.
 */
import type { Db } from '../store/database';
import { getSetting, putSetting } from '../store/settingsRepo';

export type OriginBinding = {
  /** The origin the secret is bound to: null for none; undefined when no binding was ever written. */
  bound(db: Db): string | null | undefined;
  /** Binds the secret to `origin` (null: to no address). */
  bind(db: Db, origin: string | null): void;
  /** A folder from before the binding: `current()` is taken as the secret's. Call before any change. */
  ensure(db: Db, current: () => string | null): void;
  /** Whether the secret may go to `origin`: only the very origin it is bound to. */
  mayGoTo(db: Db, origin: string | null): boolean;
};

/** The binding kept in the settings row `row`. */
export function originBinding(row: string): OriginBinding {
  const binding: OriginBinding = {
    bound(db) {
      const found = getSetting(db, row);
      if (found === undefined) return undefined;
      try {
        const value: unknown = JSON.parse(found);
        return typeof value === 'string' ? value : null;
      } catch {
        return null;
      }
    },
    bind(db, origin) {
      putSetting(db, row, JSON.stringify(origin));
    },
    ensure(db, current) {
      if (binding.bound(db) === undefined) binding.bind(db, current());
    },
    mayGoTo(db, origin) {
      return origin !== null && binding.bound(db) === origin;
    },
  };
  return binding;
}
