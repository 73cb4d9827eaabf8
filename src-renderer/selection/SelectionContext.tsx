/**
 * The one selected incident, shared by the Map and the Table (and kept when you switch between
 * them): a click on a mark or a row selects it, the incident panel shows it, the map rings it and
 * the table highlights its row. Closing the panel clears it. Where it is is kept when known (a
 * table row, a mark), so the map can ring it without asking the engine.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

export type SelectedIncident = { cdid: number; lat?: number; lon?: number };

export type Selection = {
  selected: SelectedIncident | null;
  select: (next: SelectedIncident | null) => void;
};

const SelectionContext = createContext<Selection | null>(null);

export function SelectionProvider({ children }: { children: ReactNode }) {
  const [selected, select] = useState<SelectedIncident | null>(null);
  const value = useMemo(() => ({ selected, select }), [selected]);
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

/** The shared selection; outside a provider (a view rendered alone), a selection of its own. */
export function useSelection(): Selection {
  const shared = useContext(SelectionContext);
  const [selected, select] = useState<SelectedIncident | null>(null);
  return shared ?? { selected, select };
}
