/** How many incidents the local archive holds at all (to tell "nothing synced" from "nothing matches"). */
import { useEffect, useState } from 'react';
import { useWorkspace } from '../workspace/WorkspaceContext';

export function useArchiveTotal(dataVersion: number): number | null {
  const { client } = useWorkspace();
  const [total, setTotal] = useState<number | null>(null);
  useEffect(() => {
    let cancelled = false;
    client.call('getArchiveSummary', {}).then(
      (summary) => {
        if (!cancelled) setTotal(summary.total);
      },
      () => {
        if (!cancelled) setTotal(null);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [client, dataVersion]);
  return total;
}
