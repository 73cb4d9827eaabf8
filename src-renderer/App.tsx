/**
 * The shell: navigation on the left, the current view, and the status bar at the bottom. The
 * workspace (client, areas, sync activity) and the one filter state live here, so they survive view
 * switches; the filter bar sits above the views that show filtered incidents.
 */
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { BlotterApi } from '../src-shared/contract';
import { useAppState } from './app/useAppState';
import { useBodyFlags } from './app/useBodyFlags';
import { useFocusOnViewChange } from './app/useFocusOnViewChange';
import { useHashRoute } from './app/useHashRoute';
import { isReady } from './app/appState';
import type { ViewId } from './app/routes';
import { AlertInboxProvider } from './alerts/AlertInbox';
import { createClient } from './bridge/client';
import { FilterBar } from './filters/FilterBar';
import { FiltersProvider } from './filters/FiltersContext';
import { Nav } from './shell/Nav';
import { SkipLink } from './shell/SkipLink';
import { StartupScreen } from './shell/StartupScreen';
import { SelectionProvider } from './selection/SelectionContext';
import { preloadViews, ViewSwitch } from './views/ViewSwitch';
import { DEFAULT_FILTERS } from './filters/FiltersContext';
import { US_VIEW } from './map/mapSetup';
import { prefetchSketch } from './map/sketchPrefetch';
import { FirstRunFrame } from './welcome/FirstRunFrame';
import { useFirstRun } from './welcome/useFirstRun';
import { useWorkspace, WorkspaceProvider } from './workspace/WorkspaceContext';
import { WorkspaceStatusBar } from './workspace/WorkspaceStatusBar';

/** When the views not shown at launch are fetched (after the first map). */
const PRELOAD_VIEWS_AFTER_MS = 3000;

/** The views that show the filtered incidents, under the filter bar. */
const FILTERED_VIEWS: readonly ViewId[] = ['map', 'table', 'history', 'analysis', 'export'];

function SharedFilters({ children }: { children: ReactNode }) {
  const { activity } = useWorkspace();
  return (
    <FiltersProvider dataVersion={activity.dataVersion}>
      <SelectionProvider>{children}</SelectionProvider>
    </FiltersProvider>
  );
}

export function App({ api }: { api: BlotterApi }) {
  const client = useMemo(() => createClient(api), [api]);
  const { state, apply, reload } = useAppState(client);
  const view = useHashRoute();
  const { container: mainRef, skipToMap } = useFocusOnViewChange(view);
  // First run (src-renderer/welcome): the welcome screen, the demo banner; ready once it is known.
  const firstRun = useFirstRun(client, state.keyStatus);
  useBodyFlags(isReady(state) && firstRun.loaded, state.loadError);
  // The map's first sketch, asked for with the settings (the saved view's zoom), not after the shell;
  // once per launch (later settings changes, such as the view being saved, are not a launch).
  const launchZoom = useRef<number | null>(null);
  if (launchZoom.current === null && state.settings && view === 'map') {
    launchZoom.current = state.settings.mapView?.zoom ?? US_VIEW.zoom;
    prefetchSketch(client, DEFAULT_FILTERS, launchZoom.current);
  }
  // The other views' chunks, once the launch is over (a switch is then instant).
  useEffect(() => {
    const timer = setTimeout(preloadViews, PRELOAD_VIEWS_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);

  // The shell (and the map) open once the settings are read; the key status (the keychain can take
  // hundreds of ms) arrives later and updates the status bar and the setup hints.
  const { settings, keyStatus, appInfo } = state;
  if (!settings || !firstRun.loaded) return <StartupScreen error={state.loadError} onRetry={reload} />;

  const filtered = !firstRun.welcome && FILTERED_VIEWS.includes(view);
  return (
    <WorkspaceProvider client={client}>
      <AlertInboxProvider client={client} host={appInfo?.host ?? null}>
        <SharedFilters>
          <div className="shell">
            <aside className="sidebar">
              {/* First in the sidebar's landmark, so the first Tab stop and never outside a landmark. */}
              {firstRun.welcome ? null : <SkipLink onSkip={skipToMap} />}
              <div className="brand">
                <span className="brand-mark" aria-hidden="true" />
                <span className="brand-text">Blotter</span>
              </div>
              <Nav current={view} />
            </aside>
            <main className={filtered ? 'main workspace' : 'main'} ref={mainRef}>
              <FirstRunFrame
                firstRun={firstRun}
                view={view}
                client={client}
                settings={settings}
                keyStatus={keyStatus}
                onRecheckKeychain={reload}
              >
                {filtered ? <FilterBar /> : null}
                <ViewSwitch
                  view={view}
                  client={client}
                  settings={settings}
                  keyStatus={keyStatus}
                  appInfo={appInfo}
                  apply={apply}
                />
              </FirstRunFrame>
            </main>
            <WorkspaceStatusBar keyStatus={keyStatus} settings={settings} appInfo={appInfo} />
          </div>
        </SharedFilters>
      </AlertInboxProvider>
    </WorkspaceProvider>
  );
}
