/**
 * Escape closes the incident panel wherever focus is (the map, the table, the panel itself), unless
 * something nearer already handled the key (an open select, a field being renamed) or a text field
 * has focus, where Escape belongs to the field.
 */
import { useEffect, useRef } from 'react';

export function closesOnEscape(
  event: Pick<KeyboardEvent, 'key' | 'defaultPrevented'>,
  target: EventTarget | null,
): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented) return false;
  const el = target as { tagName?: string; isContentEditable?: boolean } | null;
  const tag = el?.tagName?.toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select' || el?.isContentEditable) return false;
  return true;
}

export function useEscapeToClose(onClose: () => void): void {
  const latest = useRef(onClose);
  latest.current = onClose;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!closesOnEscape(event, event.target)) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
