/** Whether the local archive holds no incident at all (null until known); follows archive changes. */
import type { Client } from '../bridge/client';
import { useCall } from '../bridge/useCall';

export function useArchiveEmpty(client: Client, dataVersion: number): boolean | null {
  const summary = useCall(() => client.call('getArchiveSummary', {}), [client, dataVersion]);
  return summary.data ? summary.data.total === 0 : null;
}
