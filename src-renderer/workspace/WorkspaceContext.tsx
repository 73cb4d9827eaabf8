/**
 * The workspace every data view shares, provided once by App: the typed client, the saved areas,
 * the live sync activity and link state (./activity.ts), and a way to report the outcome of calls
 * that need the API. Views read it with `useWorkspace()`; the incident panel and the Areas view need
 * nothing else from their parents.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { AreaView } from '../../src-shared/sync';
import type { Client } from '../bridge/client';
import type { Activity } from './activity';
import { useWorkspaceState } from './useWorkspaceState';

export type Workspace = {
  client: Client;
  activity: Activity;
  /** Saved areas, oldest first; null until the first load. */
  areas: AreaView[] | null;
  /** Why the areas could not be loaded, in plain words. */
  areasError: string | null;
  reloadAreas: () => void;
  /** Puts an area a call returned into the list (created, renamed, paused…). */
  upsertArea: (area: AreaView) => void;
  removeArea: (id: number) => void;
  /** Tells the link state how a call that needs the API ended. */
  reportCall: (error: unknown) => void;
};

const WorkspaceContext = createContext<Workspace | null>(null);

export function WorkspaceProvider({ client, children }: { client: Client; children: ReactNode }) {
  const state = useWorkspaceState(client);
  const value = useMemo<Workspace>(
    () => ({
      client,
      activity: state.activity,
      areas: state.areas,
      areasError: state.areasError,
      reloadAreas: state.reloadAreas,
      upsertArea: state.upsertArea,
      removeArea: state.removeArea,
      reportCall: state.reportCall,
    }),
    [client, state],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace() needs a <WorkspaceProvider> above it.');
  return workspace;
}

/** For tests and previews: a provider around a fixed workspace value. */
export function StaticWorkspace({ value, children }: { value: Workspace; children: ReactNode }) {
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
