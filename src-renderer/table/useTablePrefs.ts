/**
 * The Table's columns as the user leaves them — which are shown and the widths set by hand — kept in
 * the data folder's settings (`tableView`; the web host's origin changes every launch, so not
 * localStorage), saved half a second after the last change.
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
  useEffect(() => {
    if (!changed.current) return;
    const timer = setTimeout(() => {
      client.call('updateSettings', { tableView: prefs }).catch(() => undefined);
    }, SAVE_TABLE_VIEW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [client, prefs]);
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
