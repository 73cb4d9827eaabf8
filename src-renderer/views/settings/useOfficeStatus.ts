/** The office status and the areas' names, read at once, every 10 s while joined, and on `refresh()`. */
import { useCallback, useEffect, useState } from 'react';
import type { OfficeStatus } from '../../../src-shared/officeCalls';
import type { Client } from '../../bridge/client';
import { errorText } from '../../text/errorText';

export type OfficeStatusState = {
  status: OfficeStatus | null;
  names: ReadonlyMap<number, string>;
  /** When the status was read (its ages are said from then). */
  now: number;
  refresh: () => Promise<void>;
};

export function useOfficeStatus(client: Client, onProblem: (text: string) => void): OfficeStatusState {
  const [status, setStatus] = useState<OfficeStatus | null>(null);
  const [names, setNames] = useState<ReadonlyMap<number, string>>(new Map());
  const [now, setNow] = useState(() => Date.now());
  const refresh = useCallback(async () => {
    try {
      setStatus(await client.call('getOfficeStatus', {}));
      const { areas } = await client.call('listAreas', {});
      setNames(new Map(areas.map((a) => [a.id, a.name])));
      setNow(Date.now());
    } catch (e) {
      onProblem(errorText(e));
    }
  }, [client, onProblem]);
  useEffect(() => void refresh(), [refresh]);
  useEffect(() => {
    if (!status?.joined) return;
    const t = setInterval(() => void refresh(), 10_000);
    return () => clearInterval(t);
  }, [status?.joined, refresh]);
  return { status, names, now, refresh };
}
