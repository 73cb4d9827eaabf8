/**
 * "Skip to map": the first thing Tab reaches. It opens the Map view if another is showing and puts
 * keyboard focus on the map itself (the arrow keys then pan it, + and − zoom), past the navigation
 * and the filter bar. Hidden until focused.
 */
import type { MouseEvent } from 'react';

export const MAP_SELECTOR = '[data-testid="map"]';

export function SkipLink({ onSkip }: { onSkip: () => void }) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    onSkip();
  };
  return (
    <a className="skip-link" href="#/map" onClick={click}>
      Skip to map
    </a>
  );
}
