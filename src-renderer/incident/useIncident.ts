/**
 * One incident for the panel: every stored field (getIncident, from the local file, so it works
 * offline), re-read when the archive changes, and its description fetched on request.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { BridgeCallError } from '../bridge/client';
import { errorText, problemOf } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { FetchStatus } from './descriptionState';

export function useIncident(cdid: number) {
  const { client, activity, reportCall } = useWorkspace();
  const [detail, setDetail] = useState<IncidentDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fetch, setFetch] = useState<FetchStatus>({ status: 'idle' });
  const current = useRef(cdid);
  current.current = cdid;

  const load = useCallback(() => {
    client.call('getIncident', { cdid }).then(
      (found) => {
        if (current.current !== cdid) return;
        setDetail(found);
        setError(null);
      },
      (failure: unknown) => {
        if (current.current === cdid) setError(errorText(failure));
      },
    );
  }, [client, cdid]);

  useEffect(() => {
    setDetail(null);
    setError(null);
    setFetch({ status: 'idle' });
  }, [cdid]);

  useEffect(load, [load, activity.dataVersion]);

  const fetchDescription = useCallback(() => {
    setFetch({ status: 'fetching', since: Date.now() });
    client.call('fetchIncidentDetail', { cdid }).then(
      (answer) => {
        reportCall(null);
        if (current.current !== cdid) return;
        setDetail((d) =>
          d ? { ...d, description: answer.description, descriptionFetchedAt: answer.fetchedAt } : d,
        );
        setFetch({ status: 'idle' });
      },
      (failure: unknown) => {
        reportCall(failure);
        if (current.current !== cdid) return;
        if (failure instanceof BridgeCallError && failure.code === 'not_found') {
          setFetch({ status: 'idle' });
          load(); // the engine recorded that the API no longer has it
        } else {
          setFetch({ status: 'failed', problem: problemOf(failure) });
        }
      },
    );
  }, [client, cdid, load, reportCall]);

  return { detail, error, fetch, fetchDescription, online: activity.link.online };
}
