/**
 * Who may call the engine over IPC: only the main window's top frame, showing the app's own page.
 * A subframe, another window, or the main window after navigating elsewhere is refused.
 */

/** The parts of WebFrameMain the check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
  readonly processId: number;
  readonly routingId: number;
}

export interface SenderLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: FrameLike | null;
}

export interface TrustedWindow {
  isDestroyed(): boolean;
  readonly webContents: { readonly id: number; readonly mainFrame: FrameLike };
}

export function trustedSenderCheck(
  getWindow: () => TrustedWindow | null,
  isAppUrl: (url: string) => boolean,
): (event: SenderLike) => boolean {
  return (event) => {
    const win = getWindow();
    const frame = event.senderFrame;
    if (!win || win.isDestroyed() || !frame) return false;
    if (event.sender.id !== win.webContents.id || frame.parent !== null) return false;
    const top = win.webContents.mainFrame;
    const sameFrame =
      frame === top || (frame.processId === top.processId && frame.routingId === top.routingId);
    return sameFrame && isAppUrl(frame.url);
  };
}
