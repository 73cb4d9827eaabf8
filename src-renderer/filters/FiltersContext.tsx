/**
 * The one filter state every view shares (Map, Table, History, Export). Views read it with
 * `useFilters()` and change it with `update` (a patch) or `reset`; counts, the map and the table
 * re-query whenever it changes, and whenever `dataVersion` moves (the local archive changed: a sync
 * wrote incidents). Semantics of each field: src-shared/filters.ts; control logic: ./filterModel.ts.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Filters } from '../../src-shared/filters';
import { DEFAULT_FILTERS } from './filterModel';

export { DEFAULT_FILTERS };

export type FiltersState = {
  filters: Filters;
  /** Merges a patch; a key set to undefined is cleared. */
  update: (patch: Partial<Filters>) => void;
  reset: () => void;
  /** Moves whenever incidents in the local archive changed; add it to a query's dependencies. */
  dataVersion: number;
};

const FiltersContext = createContext<FiltersState | null>(null);

export function FiltersProvider({
  children,
  initial,
  dataVersion = 0,
}: {
  children: ReactNode;
  initial?: Filters;
  dataVersion?: number;
}) {
  const [filters, setFilters] = useState<Filters>(initial ?? DEFAULT_FILTERS);
  const update = useCallback(
    (patch: Partial<Filters>) => setFilters((current) => mergeFilters(current, patch)),
    [],
  );
  const reset = useCallback(() => setFilters(DEFAULT_FILTERS), []);
  const value = useMemo(
    () => ({ filters, update, reset, dataVersion }),
    [filters, update, reset, dataVersion],
  );
  return <FiltersContext.Provider value={value}>{children}</FiltersContext.Provider>;
}

export function useFilters(): FiltersState {
  const state = useContext(FiltersContext);
  if (!state) throw new Error('useFilters() needs a <FiltersProvider> above it.');
  return state;
}

/** A patch applied to filters: undefined values remove their key, so "all" is the absence of a filter. */
export function mergeFilters(current: Filters, patch: Partial<Filters>): Filters {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as Filters;
}
