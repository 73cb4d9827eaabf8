/**
 * The first-run state of the window: whether this data folder is the demo, whether the welcome
 * screen is open, and the hint that follows a successful connection test. Loaded once the app state
 * has loaded; the welcome then stays open until the user leaves it (skip, a view in the navigation,
 * "Add your first area", or the demo).
 *
 * Starting or removing the demo switches the host to another data folder, so the page reloads
 * afterwards: every view then loads from the new folder.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { DemoStatus } from '../../src-shared/firstRun';
import type { KeyStatus } from '../../src-shared/secrets';
import { hashOf, type ViewId } from '../app/routes';
import type { Client } from '../bridge/client';
import { errorText } from '../text/errorText';
import { isLanding, shouldWelcome, WELCOME_HASH } from './decision';

export type Hint = 'first-area';

export type FirstRun = {
  /** False until the demo status and the areas have been read. */
  loaded: boolean;
  demo: DemoStatus | null;
  welcome: boolean;
  hint: Hint | null;
  /** Closes the welcome and opens a view (with a hint for it). */
  leave: (view: ViewId, hint?: Hint) => void;
  dismissHint: () => void;
  /** Switches to the demo, then reloads on the Map. Rejects with a BridgeCallError. */
  startDemo: () => Promise<void>;
  /** Deletes the demo, then reloads on the welcome. Rejects with a BridgeCallError. */
  removeDemo: () => Promise<void>;
};

const subscribeHash = (onChange: () => void): (() => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

function reloadAt(hash: string): void {
  window.location.hash = hash;
  window.location.reload();
}

export function useFirstRun(client: Client, keyStatus: KeyStatus | null): FirstRun {
  const [loaded, setLoaded] = useState(false);
  const [demo, setDemo] = useState<DemoStatus | null>(null);
  const [welcome, setWelcome] = useState(false);
  const [hint, setHint] = useState<Hint | null>(null);
  const appLoaded = keyStatus !== null;

  useEffect(() => {
    if (!appLoaded || loaded || !keyStatus) return;
    let cancelled = false;
    Promise.all([client.call('getDemoStatus', {}), client.call('listAreas', {})]).then(
      ([status, { areas }]) => {
        if (cancelled) return;
        setDemo(status);
        setWelcome(
          shouldWelcome({ keyStatus, areaCount: areas.length, demo: status }, window.location.hash, false),
        );
        setLoaded(true);
      },
      (error: unknown) => {
        if (cancelled) return;
        console.warn('Could not read the first-run state; showing the app as usual:', errorText(error));
        setLoaded(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [client, appLoaded, loaded, keyStatus]);

  // A view chosen in the navigation (or typed into the address) leaves the welcome — in the same
  // render that shows the view, so focus moves to the view's heading as on any navigation.
  const hash = useSyncExternalStore(subscribeHash, () => window.location.hash);
  const landing = isLanding(hash);
  useEffect(() => {
    if (welcome && !landing) setWelcome(false);
  }, [welcome, landing]);

  const leave = useCallback((view: ViewId, next?: Hint) => {
    setWelcome(false);
    setHint(next ?? null);
    window.location.hash = hashOf(view);
  }, []);

  const startDemo = useCallback(async () => {
    await client.call('startDemo', {});
    reloadAt(hashOf('map'));
  }, [client]);

  const removeDemo = useCallback(async () => {
    await client.call('removeDemo', {});
    reloadAt(WELCOME_HASH);
  }, [client]);

  return {
    loaded,
    demo,
    welcome: welcome && landing,
    hint,
    leave,
    dismissHint: useCallback(() => setHint(null), []),
    startDemo,
    removeDemo,
  };
}
