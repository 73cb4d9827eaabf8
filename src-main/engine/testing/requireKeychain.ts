/**
 * For tests that need the real OS keychain: fails (never skips) with instructions when no Secret
 * Service is reachable. `npm test` (scripts/test.sh) runs the suite inside a private D-Bus session
 * with an unlocked gnome-keyring, so this only fires when a test file is run by hand outside one.
 */
import { createKeytarSecretStore } from '../secrets/keytarSecretStore';

export const KEYCHAIN_TEST_HELP =
  'These tests use the real OS keychain and no Secret Service is reachable. Run them with `npm test`, ' +
  'which starts a private D-Bus session with an unlocked gnome-keyring, or by hand: ' +
  "dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; " +
  "npx vitest run src-main/engine' (Debian: apt-get install gnome-keyring dbus libsecret-tools).";

export async function requireKeychain(): Promise<void> {
  const status = await createKeytarSecretStore().probe();
  if (!status.available) throw new Error(`${KEYCHAIN_TEST_HELP}\nThe keychain said: ${status.problem}`);
}
