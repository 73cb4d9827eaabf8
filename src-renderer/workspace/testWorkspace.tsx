/**
 * For component tests (rendered with react-dom/server, no DOM): a workspace with a client whose
 * calls never answer, given areas and activity, inside the shared filters.
 */
import type { ReactNode } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { AreaView } from '../../src-shared/sync';
import type { Client } from '../bridge/client';
import { FiltersProvider } from '../filters/FiltersContext';
import { initialActivity, type Activity } from './activity';
import { StaticWorkspace, type Workspace } from './WorkspaceContext';

const silentClient: Client = {
  call: () => new Promise(() => undefined),
  onEvent: () => () => undefined,
};

export function TestWorkspace({
  children,
  areas = [],
  activity = initialActivity,
  filters,
}: {
  children: ReactNode;
  areas?: AreaView[] | null;
  activity?: Activity;
  filters?: Filters;
}) {
  const value: Workspace = {
    client: silentClient,
    activity,
    areas,
    areasError: null,
    reloadAreas: () => undefined,
    upsertArea: () => undefined,
    removeArea: () => undefined,
    reportCall: () => undefined,
  };
  return (
    <StaticWorkspace value={value}>
      <FiltersProvider {...(filters ? { initial: filters } : {})}>{children}</FiltersProvider>
    </StaticWorkspace>
  );
}

export const sampleArea = (over: Partial<AreaView> = {}): AreaView => ({
  id: 1,
  name: 'Denver downtown',
  shape: { kind: 'circle', lat: 39.7392, lon: -104.9903, radiusMi: 1 },
  refreshMinutes: 15,
  paused: false,
  createdAt: 0,
  lastSyncedAt: null,
  backfilledAt: null,
  lastRun: null,
  syncing: false,
  ...over,
});
