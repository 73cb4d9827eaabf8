/**
 * Messages that stand where the user acts (issue 25 item 10): an error beside the control or the
 * action it is about — announced (`role="alert"`, `aria-live`), scrolled into view when it appears
 * or changes, and named by the control's `aria-describedby` — and the reason an action is
 * disabled, beside it. Forms use these instead of the browser's own validation popups.
 */
import { useEffect, useRef } from 'react';

/** An error next to its control or action; nothing when `message` is empty. */
export function InlineError({
  id,
  message,
  className = 'field-error',
  testId,
}: {
  id: string;
  message: string | null | undefined;
  className?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [message]);
  if (!message) return null;
  return (
    <p ref={ref} id={id} className={className} role="alert" aria-live="assertive" data-testid={testId}>
      {message}
    </p>
  );
}

/** Why the action beside it is disabled (its `aria-describedby`); nothing when it is enabled. */
export function DisabledReason({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <p id={id} className="muted small" aria-live="polite" data-testid="disabled-reason">
      {reason}
    </p>
  );
}

/** The props a control takes to be named invalid and described by its error. */
export function invalidProps(errorId: string, message: string | null | undefined) {
  return message ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
}
