/** Moves keyboard focus to the new view's heading after navigation (not on first load). */
import { useEffect, useRef, type RefObject } from 'react';
import type { ViewId } from './routes';

export function useFocusOnViewChange(view: ViewId): RefObject<HTMLElement | null> {
  const container = useRef<HTMLElement>(null);
  const previous = useRef<ViewId | null>(null);
  useEffect(() => {
    if (previous.current !== null && previous.current !== view)
      container.current?.querySelector('h1')?.focus();
    previous.current = view;
  }, [view]);
  return container;
}
