/**
 * Feeds the workspace: subscribes to engine events and loads the saved areas (again whenever a sync
 * changes state, so "last synced" stays true). Archive changes arrive as `incidentsChanged`
 * events, which the engine sends at most every 250 ms (activity.ts).
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError, type Client } from '../bridge/client';
import { useNewest } from '../bridge/useCall';
import { useEngineEvent } from '../bridge/useEngineEvent';
import { errorText } from '../text/errorText';
import { activityReducer, initialActivity, type SyncProgress } from './activity';

export function useWorkspaceState(client: Client) {
  const [activity, dispatch] = useReducer(activityReducer, initialActivity);
  const [areas, setAreas] = useState<AreaView[] | null>(null);
  const [areasError, setAreasError] = useState<string | null>(null);
  const newest = useNewest();

  const reloadAreas = useCallback(() => {
    const current = newest();
    client.call('listAreas', {}).then(
      ({ areas: list }) => {
        if (!current()) return;
        setAreas(list);
        setAreasError(null);
      },
      (error: unknown) => {
        if (current()) setAreasError(errorText(error));
      },
    );
  }, [client, newest]);

  const states = useRef(new Map<number, SyncProgress['state']>());
  useEngineEvent(client, 'all', (event) => {
    dispatch({ type: 'event', event });
    if (event.type !== 'syncProgress') return;
    if (states.current.get(event.areaId) !== event.state) reloadAreas();
    states.current.set(event.areaId, event.state);
  });
  useEffect(() => {
    reloadAreas();
    client.call('getConnectivity', {}).then(
      (known) => dispatch({ type: 'linkAtLoad', ...known }),
      () => undefined, // an older host: the link stays unknown until evidence arrives
    );
  }, [client, reloadAreas]);

  const upsertArea = useCallback((area: AreaView) => {
    setAreas((list) => {
      const current = list ?? [];
      return current.some((a) => a.id === area.id)
        ? current.map((a) => (a.id === area.id ? area : a))
        : [...current, area];
    });
  }, []);

  const removeArea = useCallback((id: number) => {
    setAreas((list) => (list ? list.filter((a) => a.id !== id) : list));
  }, []);

  const reportCall = useCallback((error: unknown) => {
    if (!error) dispatch({ type: 'callResult', ok: true });
    else if (error instanceof BridgeCallError)
      dispatch({ type: 'callResult', ok: false, code: error.code, message: error.message });
  }, []);

  return useMemo(
    () => ({ activity, areas, areasError, reloadAreas, upsertArea, removeArea, reportCall, dispatch }),
    [activity, areas, areasError, reloadAreas, upsertArea, removeArea, reportCall],
  );
}
