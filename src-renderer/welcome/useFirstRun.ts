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
import { useCurrentEffect } from '../bridge/useCall';
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

  // The demo status and the areas are read at once, not after the keychain (which can take
  // hundreds of ms): with areas or the demo it is no first run whatever the key, so the app opens
  // without waiting for the key status; only an empty folder waits for it to decide.
  const [facts, setFacts] = useState<{ demo: DemoStatus; areaCount: number } | 'failed' | null>(null);
  useCurrentEffect(
    (current) => {
      Promise.all([client.call('getDemoStatus', {}), client.call('listAreas', {})]).then(
        ([status, { areas }]) => current() && setFacts({ demo: status, areaCount: areas.length }),
        (error: unknown) => {
          if (!current()) return;
          console.warn('Could not read the first-run state; showing the app as usual:', errorText(error));
          setFacts('failed');
        },
      );
    },
    [client],
  );
  useEffect(() => {
    if (loaded || facts === null) return;
    if (facts === 'failed') return setLoaded(true);
    setDemo(facts.demo);
    const plainlyNotFirst = facts.demo.active || facts.areaCount > 0;
    if (!plainlyNotFirst && !keyStatus) return;
    setWelcome(
      !plainlyNotFirst && !!keyStatus && shouldWelcome({ keyStatus, ...facts }, window.location.hash, false),
    );
    setLoaded(true);
  }, [facts, keyStatus, loaded]);

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
