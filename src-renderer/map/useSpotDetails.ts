/**
 * The date and address of each incident in a spot list, read from the local archive (getIncident,
 * a few at a time) as the list opens. Rows fill in as their answers come; a new spot starts over.
 */
import { useState } from 'react';
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { useCurrentEffect } from '../bridge/useCall';
import { useWorkspace } from '../workspace/WorkspaceContext';

/** How many getIncident calls are in flight at once. */
const PARALLEL = 6;

export function useSpotDetails(cdids: readonly number[]): ReadonlyMap<number, IncidentDetail> {
  const { client } = useWorkspace();
  const [details, setDetails] = useState<ReadonlyMap<number, IncidentDetail>>(new Map());
  const key = cdids.join(',');
  useCurrentEffect(
    (current) => {
      setDetails(new Map());
      const queue = key ? key.split(',').map(Number) : [];
      const next = async (): Promise<void> => {
        const cdid = queue.shift();
        if (cdid === undefined || !current()) return;
        try {
          const detail = await client.call('getIncident', { cdid });
          if (current()) setDetails((before) => new Map(before).set(cdid, detail));
        } catch {
          // A row that cannot be read keeps showing its type and number.
        }
        return next();
      };
      for (let i = 0; i < PARALLEL; i++) void next();
    },
    [client, key],
  );
  return details;
}
