/** The shell: navigation on the left, the current view, and the status bar at the bottom. */
import { useMemo } from 'react';
import type { BlotterApi } from '../src-shared/contract';
import { useAppState } from './app/useAppState';
import { useBodyFlags } from './app/useBodyFlags';
import { useFocusOnViewChange } from './app/useFocusOnViewChange';
import { useHashRoute } from './app/useHashRoute';
import { isReady } from './app/appState';
import { createClient } from './bridge/client';
import { Nav } from './shell/Nav';
import { StartupScreen } from './shell/StartupScreen';
import { StatusBar } from './shell/StatusBar';
import { ViewSwitch } from './views/ViewSwitch';

export function App({ api }: { api: BlotterApi }) {
  const client = useMemo(() => createClient(api), [api]);
  const { state, apply, reload } = useAppState(client);
  const view = useHashRoute();
  const mainRef = useFocusOnViewChange(view);
  useBodyFlags(isReady(state), state.loadError);

  const { settings, keyStatus, appInfo, connectivity } = state;
  if (!settings || !keyStatus) return <StartupScreen error={state.loadError} onRetry={reload} />;

  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Blotter
        </div>
        <Nav current={view} />
      </aside>
      <main className="main" ref={mainRef}>
        <ViewSwitch
          view={view}
          client={client}
          settings={settings}
          keyStatus={keyStatus}
          appInfo={appInfo}
          apply={apply}
        />
      </main>
      <StatusBar connectivity={connectivity} keyStatus={keyStatus} settings={settings} appInfo={appInfo} />
    </div>
  );
}
