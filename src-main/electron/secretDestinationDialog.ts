/**
 * The main-process question before a stored secret may go to a new address (DESIGN: "Outbound
 * addresses and secrets"): the API key to a new base URL, the mail password to a new mail server. A
 * window can change the address, but only the user, answering this dialog, lets the secret follow
 * it: ipc.ts forwards a call that `confirmsSecret` (src-shared/secretDestination.ts) to the engine
 * only after a yes here. The dialog names the whole address, and "Keep … here" is the default and
 * the cancel answer. `dialog` is passed in, so this is tested with a fake.
 */
import type { SecretDestination, SecretName } from '../../src-shared/secretDestination';

/** What this needs of Electron's `dialog`. */
export interface MessageDialogLike<W> {
  showMessageBox(
    window: W,
    options: {
      type: 'warning';
      title: string;
      message: string;
      detail: string;
      buttons: string[];
      defaultId: number;
      cancelId: number;
      noLink: boolean;
    },
  ): Promise<{ response: number }>;
}

const SEND = 0;
const KEEP = 1;

/** The dialog's words for each secret. */
const WORDS: Record<
  SecretName,
  {
    title: string;
    message: (to: string) => string;
    detail: (to: string) => string;
    send: string;
    keep: string;
  }
> = {
  apiKey: {
    title: 'Send the API key to a new address?',
    message: (to) => `Send your API key to ${to}?`,
    detail: (to) =>
      `The base URL now points at ${to}. Blotter sends the API key with every request to the API, ` +
      'so only say yes if this is the address your API operator gave you. If you did not change the ' +
      'base URL yourself, choose “Keep the key here”.',
    send: 'Send the key to',
    keep: 'Keep the key here',
  },
  mailPassword: {
    title: 'Send the mail password to a new server?',
    message: (to) => `Send your mail password to ${to}?`,
    detail: (to) =>
      `Emails now go through ${to}. Blotter signs in with the stored password, so only say ` +
      'yes if this is your office’s mail server. Otherwise choose “Keep the password here”.',
    send: 'Send the password to',
    keep: 'Keep the password here',
  },
};

/** Asks whether the secret may go to the address; true only for an explicit yes. */
export function secretDestinationConfirmer<W>(
  dialog: MessageDialogLike<W>,
  window: () => W | null,
): (destination: SecretDestination) => Promise<boolean> {
  return async ({ secret, address }) => {
    const parent = window();
    if (!parent) return false;
    const words = WORDS[secret];
    const { response } = await dialog.showMessageBox(parent, {
      type: 'warning',
      title: words.title,
      message: words.message(address),
      detail: words.detail(address),
      buttons: [`${words.send} ${address}`, words.keep],
      defaultId: KEEP,
      cancelId: KEEP,
      noLink: true,
    });
    return response === SEND;
  };
}
