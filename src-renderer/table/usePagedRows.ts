/**
 * The table's data: listIncidents pages of the current filters and sort, fetched as rows come into
 * view (`want(first, last)`), cached per query (./pageCache.ts), refetched in place when the archive
 * changes, and dropped when the filters or the sort change.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Filters, GeoPoint } from '../../src-shared/filters';
import type { IncidentRow } from '../../src-shared/incidentQueries';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { PageCache } from './pageCache';
import type { Sort } from './sortState';

export const PAGE_SIZE = 200;

export type PagedRows = {
  /** Rows in the result; null until the first page arrives. */
  total: number | null;
  rowAt: (index: number) => IncidentRow | undefined;
  want: (first: number, last: number) => void;
  /** The point distances are measured from, if any. */
  center: GeoPoint | null;
  error: string | null;
  /** Changes whenever rows arrive, so the view re-renders. */
  version: number;
  /** The query: changes when filters or sort change (to reset scrolling). */
  queryKey: string;
};

export function usePagedRows(filters: Filters, sort: Sort, dataVersion: number): PagedRows {
  const { client } = useWorkspace();
  const queryKey = JSON.stringify([filters, sort]);
  // One cache per query; `want` below is made with the same render's filters and sort.
  const cache = useMemo(() => new PageCache<IncidentRow>(PAGE_SIZE), [queryKey]);
  const [version, setVersion] = useState(0);
  const [center, setCenter] = useState<GeoPoint | null>(null);
  const [error, setError] = useState<string | null>(null);
  const visible = useRef<[number, number]>([0, PAGE_SIZE - 1]);
  const live = useRef(cache);
  live.current = cache;

  const want = useCallback(
    (first: number, last: number) => {
      visible.current = [first, last];
      for (const { page, offset, limit, generation } of cache.request(cache.wanted(first, last))) {
        client.call('listIncidents', { filters, sort, offset, limit }).then(
          (result) => {
            if (live.current !== cache) return;
            cache.put(page, result.rows, result.total, generation);
            setCenter(result.center);
            setError(null);
            setVersion((v) => v + 1);
          },
          (failure: unknown) => {
            if (live.current !== cache) return;
            cache.fail(page, generation);
            setError(errorText(failure));
            setVersion((v) => v + 1);
          },
        );
      }
    },
    [client, cache],
  );

  // A new query starts at the top.
  useEffect(() => {
    setError(null);
    want(0, PAGE_SIZE - 1);
  }, [want]);

  // The archive changed: refetch what is on screen, keep showing what is held meanwhile.
  const seenData = useRef(dataVersion);
  useEffect(() => {
    if (seenData.current === dataVersion) return;
    seenData.current = dataVersion;
    cache.invalidate();
    want(...visible.current);
  }, [dataVersion, cache, want]);

  const rowAt = useCallback((index: number) => cache.rowAt(index), [cache]);
  return { total: cache.total, rowAt, want, center, error, version, queryKey };
}
