/**
 * Plain words for a keychain that cannot be used: what went wrong and how to fix it on this
 * platform. Pure; the keytar store picks the right one from the error it got.
 */
import type { KeychainProblem } from './secretStore';

export type KeychainFailure =
  { kind: 'load'; error: unknown } | { kind: 'call'; error: unknown } | { kind: 'timeout'; seconds: number };

const LINUX_INSTALL =
  'Install a Secret Service such as GNOME Keyring (or use KWallet) and libsecret — on Debian or Ubuntu: ' +
  'sudo apt-get install gnome-keyring libsecret-1-0; on Fedora: sudo dnf install gnome-keyring libsecret — ' +
  'then log out and back in, or restart Blotter.';
const LINUX_DBUS =
  'Run Blotter inside a desktop session, or start a D-Bus session for it: dbus-run-session -- blotter ' +
  '(on a machine without a desktop, also unlock a keyring in that session: ' +
  'echo -n PASSWORD | gnome-keyring-daemon --unlock --components=secrets).';
const LINUX_UNLOCK =
  'Unlock your keyring in the desktop\u2019s password manager (Passwords and Keys / Seahorse, or KWallet), ' +
  'answer any unlock prompt, then try again.';
const MAC_FIX =
  'Open Keychain Access, make sure the "login" keychain is unlocked (File \u203a Unlock Keychain), and allow ' +
  'Blotter when macOS asks for access to it.';
const WINDOWS_FIX =
  'Open Credential Manager (Control Panel \u203a Credential Manager \u203a Windows Credentials) and check that it ' +
  'opens; sign in with a Windows account whose profile can store credentials.';

/** The keychain's name on this platform, shown when it works. */
export function keychainBackend(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service (libsecret)';
}

export function describeKeychainFailure(
  failure: KeychainFailure,
  platform: NodeJS.Platform,
): KeychainProblem {
  const problem = (text: string, fix: string): KeychainProblem => ({ available: false, problem: text, fix });
  const name = keychainBackend(platform);

  if (failure.kind === 'timeout') {
    return problem(
      `The ${name} did not answer within ${failure.seconds} s; it may be locked and waiting for you to unlock it.`,
      platform === 'linux' ? `${LINUX_UNLOCK} If no prompt appears: ${LINUX_DBUS}` : fixFor(platform),
    );
  }
  const message = failure.error instanceof Error ? failure.error.message : String(failure.error);

  if (failure.kind === 'load') {
    if (platform === 'linux' && /libsecret|lib(glib|gio)-2\.0/i.test(message)) {
      return problem(
        'The Secret Service library (libsecret) is not installed on this computer.',
        LINUX_INSTALL,
      );
    }
    return problem(
      `Blotter\u2019s keychain module could not be loaded (${message}).`,
      'Reinstall Blotter. (From source: run npm rebuild keytar, or npm start / npm test, which rebuild it.)',
    );
  }
  if (platform !== 'linux')
    return problem(`The ${name} answered with an error: ${message}.`, fixFor(platform));
  if (/autolaunch|DBUS_SESSION_BUS_ADDRESS|Could not connect|dbus-launch|Connection refused/i.test(message)) {
    return problem(
      'No D-Bus session is running, so the Secret Service (the Linux keychain) cannot be reached.',
      LINUX_DBUS,
    );
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service/i.test(message)) {
    return problem(
      'No Secret Service (such as GNOME Keyring or KWallet) is installed or running.',
      LINUX_INSTALL,
    );
  }
  if (/locked|dismissed|prompt/i.test(message)) {
    return problem('The keyring is locked, or the unlock prompt was dismissed.', LINUX_UNLOCK);
  }
  return problem(
    `The Secret Service answered with an error: ${message}.`,
    `${LINUX_UNLOCK} ${LINUX_INSTALL}`,
  );
}

function fixFor(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return MAC_FIX;
  if (platform === 'win32') return WINDOWS_FIX;
  return `${LINUX_DBUS} ${LINUX_INSTALL}`;
}
