/** The current view, read from the location hash and updated on every hashchange. */
import { useSyncExternalStore } from 'react';
import { viewFromHash, type ViewId } from './routes';

const subscribe = (onChange: () => void): (() => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

export function useHashRoute(): ViewId {
  return useSyncExternalStore(subscribe, () => viewFromHash(window.location.hash));
}
