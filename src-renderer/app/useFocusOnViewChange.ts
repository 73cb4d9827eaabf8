/**
 * Keyboard focus after navigation (not on first load): the new view's heading; or, after "Skip to
 * map", the map itself. `skipToMap()` focuses the map now when it is showing, else opens the Map view
 * and focuses the map once it is there.
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { MAP_SELECTOR } from '../shell/SkipLink';
import type { ViewId } from './routes';

export function useFocusOnViewChange(view: ViewId): {
  container: RefObject<HTMLElement | null>;
  skipToMap: () => void;
} {
  const container = useRef<HTMLElement>(null);
  const previous = useRef<ViewId | null>(null);
  const wantMap = useRef(false);
  useEffect(() => {
    let watching: MutationObserver | null = null;
    if (previous.current !== null && previous.current !== view) {
      const map = wantMap.current ? container.current?.querySelector<HTMLElement>(MAP_SELECTOR) : null;
      const heading = container.current?.querySelector<HTMLElement>('h1');
      if (map) map.focus();
      else if (heading) heading.focus();
      else if (container.current) {
        // A view that loads on first use (views/ViewSwitch.tsx) has no heading yet: focus it once there.
        const root = container.current;
        watching = new MutationObserver(() => {
          const h1 = root.querySelector<HTMLElement>('h1');
          if (!h1) return;
          watching?.disconnect();
          h1.focus();
        });
        watching.observe(root, { childList: true, subtree: true });
      }
    }
    wantMap.current = false;
    previous.current = view;
    return () => watching?.disconnect();
  }, [view]);
  const skipToMap = useCallback(() => {
    const map = container.current?.querySelector<HTMLElement>(MAP_SELECTOR);
    if (view === 'map' && map) return map.focus();
    wantMap.current = true;
    window.location.hash = '#/map';
  }, [view]);
  return { container, skipToMap };
}
