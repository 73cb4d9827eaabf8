/**
 * Picks the component of the current view. Each view lives in its own file; only the Map is in the
 * first bundle (it is what a launch shows), the others load on first use (React.lazy: their own
 * chunks, fetched while the map draws — see `preloadViews`).
 */
import { lazy, Suspense } from 'react';
import { setupStep } from '../app/nextStep';
import type { ViewId } from '../app/routes';
import type { KeyStatus } from '../../src-shared/secrets';
import { MapView } from './MapView';
import type { SettingsViewProps } from './SettingsView';

const load = {
  table: () => import('./TableView').then((m) => ({ default: m.TableView })),
  history: () => import('./HistoryView').then((m) => ({ default: m.HistoryView })),
  analysis: () => import('./AnalysisView').then((m) => ({ default: m.AnalysisView })),
  export: () => import('./ExportView').then((m) => ({ default: m.ExportView })),
  areas: () => import('./AreasView').then((m) => ({ default: m.AreasView })),
  alerts: () => import('./AlertsView').then((m) => ({ default: m.AlertsView })),
  settings: () => import('./SettingsView').then((m) => ({ default: m.SettingsView })),
};
const TableView = lazy(load.table);
const HistoryView = lazy(load.history);
const AnalysisView = lazy(load.analysis);
const ExportView = lazy(load.export);
const AreasView = lazy(load.areas);
const AlertsView = lazy(load.alerts);
const SettingsView = lazy(load.settings);

/** Fetches the other views' chunks in the background (after the first map), so a switch is instant. */
export function preloadViews(): void {
  for (const f of Object.values(load)) void f().catch(() => undefined);
}

export type ViewSwitchProps = { view: ViewId } & Omit<SettingsViewProps, 'keyStatus'> & {
    /** Null while the keychain is still being asked. */
    keyStatus: KeyStatus | null;
  };

function Loading() {
  return <p className="view-loading">Loading…</p>;
}

export function ViewSwitch({ view, keyStatus, ...props }: ViewSwitchProps) {
  const setup = keyStatus ? setupStep(props.settings, keyStatus) : null;
  switch (view) {
    case 'map':
      return <MapView setup={setup} initialView={props.settings.mapView ?? null} />;
    case 'table':
      return (
        <Suspense fallback={<Loading />}>
          <TableView setup={setup} savedColumns={props.settings.tableView} />
        </Suspense>
      );
    case 'history':
      return (
        <Suspense fallback={<Loading />}>
          <HistoryView setup={setup} />
        </Suspense>
      );
    case 'analysis':
      return (
        <Suspense fallback={<Loading />}>
          <AnalysisView setup={setup} />
        </Suspense>
      );
    case 'export':
      return (
        <Suspense fallback={<Loading />}>
          <ExportView setup={setup} />
        </Suspense>
      );
    case 'areas':
      return (
        <Suspense fallback={<Loading />}>
          <AreasView setup={setup} />
        </Suspense>
      );
    case 'alerts':
      return (
        <Suspense fallback={<Loading />}>
          <AlertsView setup={setup} />
        </Suspense>
      );
    case 'settings':
      return keyStatus ? (
        <Suspense fallback={<Loading />}>
          <SettingsView {...props} keyStatus={keyStatus} />
        </Suspense>
      ) : (
        <Loading />
      );
  }
}
