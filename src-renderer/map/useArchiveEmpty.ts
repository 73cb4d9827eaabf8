/** Whether the local archive holds no incident at all (null until known); follows archive changes. */
import { useEffect, useState } from 'react';
import type { Client } from '../bridge/client';

export function useArchiveEmpty(client: Client, dataVersion: number): boolean | null {
  const [empty, setEmpty] = useState<boolean | null>(null);
  useEffect(() => {
    let cancelled = false;
    client.call('getArchiveSummary', {}).then(
      (s) => !cancelled && setEmpty(s.total === 0),
      () => !cancelled && setEmpty(null),
    );
    return () => {
      cancelled = true;
    };
  }, [client, dataVersion]);
  return empty;
}
