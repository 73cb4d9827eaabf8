/** How many incidents the local archive holds at all (to tell "nothing synced" from "nothing matches"). */
import { useCall } from '../bridge/useCall';
import { useWorkspace } from '../workspace/WorkspaceContext';

export function useArchiveTotal(dataVersion: number): number | null {
  const { client } = useWorkspace();
  const summary = useCall(() => client.call('getArchiveSummary', {}), [client, dataVersion]);
  return summary.data?.total ?? null;
}
