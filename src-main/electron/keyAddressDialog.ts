/**
 * The main-process question before the stored API key may go to a new base URL (DESIGN: "Outbound
 * addresses and secrets"). A window can change the base URL, but only the user, answering this
 * dialog, lets the key follow it: ipc.ts forwards `confirmBaseUrl` to the engine only after a yes
 * here. The dialog names the host, and "Keep the key here" is the default and the cancel answer.
 * `dialog` is passed in, so this is tested with a fake.
 */

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

/** Asks whether the key may be sent to `host`; true only for an explicit yes. */
export function keyAddressConfirmer<W>(
  dialog: MessageDialogLike<W>,
  window: () => W | null,
): (host: string) => Promise<boolean> {
  return async (host) => {
    const parent = window();
    if (!parent) return false;
    const { response } = await dialog.showMessageBox(parent, {
      type: 'warning',
      title: 'Send the API key to a new address?',
      message: `Send your API key to ${host}?`,
      detail:
        `The base URL now points at ${host}. Blotter sends the API key with every request to the API, ` +
        'so only say yes if this is the address your API operator gave you. If you did not change the ' +
        'base URL yourself, choose “Keep the key here”.',
      buttons: [`Send the key to ${host}`, 'Keep the key here'],
      defaultId: KEEP,
      cancelId: KEEP,
      noLink: true,
    });
    return response === SEND;
  };
}
