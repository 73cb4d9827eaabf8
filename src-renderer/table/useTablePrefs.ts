/**
 * The Table's columns as the user leaves them — which are shown and the widths set by hand — kept in
 * the data folder's settings (`tableView`; the web host's origin changes every launch, so not
 * localStorage), saved half a second after the last change — or at once when the Table closes
 * before then (a column chosen just before switching views is kept).
 */
import { useEffect, useRef, useState } from 'react';
import type { Settings } from '../../src-shared/settings';
import type { Client } from '../bridge/client';
import { DEFAULT_COLUMNS } from './columns';

export type TablePrefs = NonNullable<Settings['tableView']>;

export const SAVE_TABLE_VIEW_AFTER_MS = 500;

export function useTablePrefs(client: Client, saved: TablePrefs | undefined) {
  const [prefs, setPrefs] = useState<TablePrefs>(saved ?? { columns: [...DEFAULT_COLUMNS], widths: {} });
  const changed = useRef(false);
  /** A change not saved yet. */
  const unsaved = useRef<TablePrefs | null>(null);
  useEffect(() => {
    const save = (value: TablePrefs) => {
      unsaved.current = null;
      client.call('updateSettings', { tableView: value }).catch(() => undefined);
    };
    if (changed.current) unsaved.current = prefs;
    const timer = changed.current ? setTimeout(() => save(prefs), SAVE_TABLE_VIEW_AFTER_MS) : undefined;
    return () => clearTimeout(timer);
  }, [client, prefs]);
  // Closing the Table (another view) saves what is still waiting.
  useEffect(
    () => () => {
      const value = unsaved.current;
      if (value) {
        unsaved.current = null;
        client.call('updateSettings', { tableView: value }).catch(() => undefined);
      }
    },
    [client],
  );
  const change = (next: TablePrefs) => {
    changed.current = true;
    setPrefs(next);
  };
  return {
    prefs,
    setColumns: (columns: string[]) => change({ ...prefs, columns }),
    setWidths: (widths: Record<string, number>) => change({ ...prefs, widths }),
  };
}
