/**
 * The one confirmation every action that asks first uses: a modal dialog (the native <dialog>,
 * shown with showModal, so the page behind is inert). Focus starts on the safe choice (Cancel), Tab
 * and Shift+Tab stay inside, Escape cancels (unless the action is under way), and on closing focus
 * goes back to the control that opened it — or, when that control is gone, to `fallbackFocus`.
 * Enter twice can never confirm a destructive action.
 */
import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styles from './confirmDialog.module.css';

export type ConfirmDialogProps = {
  /** The question, the dialog's accessible name: "Delete “Downtown”?". */
  title: string;
  /** What happens, in words; any fields (a checkbox) and problems. */
  children?: ReactNode;
  confirmLabel: string;
  /** The confirm button's words while `busy`. */
  busyLabel?: string;
  cancelLabel?: string;
  /** The action runs: both buttons wait, and Escape does nothing. */
  busy?: boolean;
  /** The confirm button is not offered yet (a plan still loading, a refusal). */
  confirmDisabled?: boolean;
  /** A destructive action: the confirm button is drawn as dangerous. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Where focus goes on closing when the opener is gone (or cannot take focus). */
  fallbackFocus?: () => HTMLElement | null | undefined;
  testId?: string;
};

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel = 'Cancel',
  busy = false,
  confirmDisabled = false,
  danger = false,
  onConfirm,
  onCancel,
  fallbackFocus,
  testId,
}: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const latest = useRef({ busy, onCancel, fallbackFocus });
  latest.current = { busy, onCancel, fallbackFocus };

  // Open modally on mount, focus the safe choice; on unmount give focus back to the opener.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      const back = () => {
        if (opener && opener.isConnected && opener !== document.body) {
          opener.focus();
          if (document.activeElement === opener) return;
        }
        latest.current.fallbackFocus?.()?.focus();
      };
      // After this commit, so an opener re-rendered in the same update is in place.
      queueMicrotask(back);
    };
  }, []);

  // Escape through the browser's own cancel (and a close the browser forces): cancel, never leave
  // the dialog closed while the page still holds it.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onNativeCancel = (event: Event) => {
      event.preventDefault();
      if (!latest.current.busy) latest.current.onCancel();
    };
    const onClose = () => {
      // Closed by our own unmount (detached), or shown again since (StrictMode's second mount).
      if (!dialog.isConnected || dialog.open) return;
      if (latest.current.busy) dialog.showModal();
      else latest.current.onCancel();
    };
    dialog.addEventListener('cancel', onNativeCancel);
    dialog.addEventListener('close', onClose);
    return () => {
      dialog.removeEventListener('cancel', onNativeCancel);
      dialog.removeEventListener('close', onClose);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (!busy) onCancel();
      return;
    }
    if (event.key !== 'Tab') return;
    const dialog = dialogRef.current;
    if (!dialog) return;
    const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) {
      event.preventDefault();
      dialog.focus();
      return;
    }
    const first = focusable[0] as HTMLElement;
    const last = focusable[focusable.length - 1] as HTMLElement;
    const active = document.activeElement;
    const inside = active instanceof Node && dialog.contains(active) && active !== dialog;
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialogRef}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      aria-busy={busy}
      tabIndex={-1}
      data-testid={testId}
      onKeyDown={onKeyDown}
    >
      <h3 id={titleId}>{title}</h3>
      <div id={bodyId} className={styles.body}>
        {children}
      </div>
      <div className="actions">
        <button
          type="button"
          className={`button ${danger ? 'button-danger' : 'primary'}`}
          onClick={onConfirm}
          disabled={busy || confirmDisabled}
        >
          {busy && busyLabel ? busyLabel : confirmLabel}
        </button>
        <button type="button" ref={cancelRef} className="button" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}
