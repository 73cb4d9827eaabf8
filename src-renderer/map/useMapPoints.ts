/**
 * The filtered incidents as packed columns, handed to the cluster worker: re-queried at once when
 * the filters change and shortly after the archive changes (a sync writes in bursts, so those are
 * debounced). An answer to filters that have since changed is dropped.
 */
import { useRef, useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { errorText } from '../text/errorText';
import type { ClusterClient } from './clusterClient';
import type { LoadedInfo } from './clusterProtocol';
import { mark, perf } from './perf';

export const DATA_CHANGE_DEBOUNCE_MS = 500;

export type MapPointsState = {
  info: LoadedInfo | null;
  loading: boolean;
  error: string | null;
  /** The points came from a saved snapshot behind the file (the map says "Updating"). */
  updating?: boolean;
};

export function useMapPoints(
  client: Client,
  cluster: ClusterClient | null,
  filters: Filters,
  dataVersion: number,
): MapPointsState {
  const [state, setState] = useState<MapPointsState>({ info: null, loading: true, error: null });
  const key = JSON.stringify(filters);
  const lastKey = useRef<string | null>(null);

  useCurrentEffect(
    (current) => {
      if (!cluster) return;
      const filtersChanged = lastKey.current !== key;
      lastKey.current = key;
      const run = async () => {
        setState((s) => ({ ...s, loading: true }));
        try {
          const started = performance.now();
          mark('points-asked');
          const points = await client.call('getMapPoints', { filters: JSON.parse(key) as Filters });
          if (!current()) return;
          const fetchMs = performance.now() - started;
          mark('points-received');
          const info = await cluster.load(points);
          if (!current()) return;
          mark('index-built');
          perf().points = { incidents: info.incidents, sites: info.sites, fetchMs, buildMs: info.buildMs };
          setState({ info, loading: false, error: null, updating: points.updating === true });
        } catch (error) {
          if (current()) setState((s) => ({ ...s, loading: false, error: errorText(error) }));
        }
      };
      const timer = setTimeout(() => void run(), filtersChanged ? 0 : DATA_CHANGE_DEBOUNCE_MS);
      return () => clearTimeout(timer);
    },
    [client, cluster, key, dataVersion],
  );

  return state;
}
