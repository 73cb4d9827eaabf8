/** One engine call kept in step with its inputs: re-run when `key` changes; a late answer to an older key is dropped. */
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../text/errorText';

export type CallState<T> = { data: T | null; error: string | null; loading: boolean };

export function useCall<T>(run: () => Promise<T>, key: string, enabled = true): CallState<T> {
  const [state, setState] = useState<CallState<T>>({ data: null, error: null, loading: enabled });
  const seq = useRef(0);
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    if (!enabled) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    runRef.current().then(
      (data) => mine === seq.current && setState({ data, error: null, loading: false }),
      (failure: unknown) =>
        mine === seq.current && setState({ data: null, error: errorText(failure), loading: false }),
    );
  }, [key, enabled]);
  return state;
}
