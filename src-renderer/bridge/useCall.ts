/**
 * Engine calls that can answer late, in one place, so no component keeps its own late-answer flag.
 *
 * - `useCurrentEffect(effect, deps)`: an effect handed a `current()` test that turns false as soon as
 *   its inputs change or the component goes; whatever arrives after that is dropped.
 * - `useNewest()`: for a request made on demand (a reload after an event): each `begin()` gives a
 *   `current()` that turns false when a newer request begins or the component goes.
 * - `useCall(run, deps)`: one call kept in step with its inputs — its answer, or its error in words
 *   (`errorText`), and whether it is loading; `reload()` asks again. An answer to older inputs, or
 *   one that arrives after the component went, is dropped.
 */
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { errorText } from '../text/errorText';

/** True while the request that received it is still the newest and its component is still there. */
export type Current = () => boolean;

export function useCurrentEffect(
  effect: (current: Current) => void | (() => void),
  deps: DependencyList,
): void {
  const effectRef = useRef(effect);
  effectRef.current = effect;
  useEffect(() => {
    let current = true;
    const cleanup = effectRef.current(() => current);
    return () => {
      current = false;
      cleanup?.();
    };
    // The caller's inputs are the dependencies; the effect itself is read fresh each run.
  }, deps);
}

export function useNewest(): () => Current {
  const newest = useRef(0);
  const gone = useRef(false);
  useEffect(() => {
    gone.current = false;
    return () => {
      gone.current = true;
    };
  }, []);
  return useCallback(() => {
    const mine = ++newest.current;
    return () => !gone.current && mine === newest.current;
  }, []);
}

export type CallState<T> = { data: T | null; error: string | null; loading: boolean };
export type Call<T> = CallState<T> & { reload: () => void };

/** `enabled` false: no call (the last answer stays). The answer is kept while a newer one loads. */
export function useCall<T>(run: () => Promise<T>, deps: DependencyList, enabled = true): Call<T> {
  const [state, setState] = useState<CallState<T>>({ data: null, error: null, loading: enabled });
  const [asked, setAsked] = useState(0);
  const runRef = useRef(run);
  runRef.current = run;
  useCurrentEffect(
    (current) => {
      if (!enabled) return;
      setState((s) => (s.loading ? s : { ...s, loading: true }));
      runRef.current().then(
        (data) => current() && setState({ data, error: null, loading: false }),
        (failure: unknown) =>
          current() && setState({ data: null, error: errorText(failure), loading: false }),
      );
    },
    [...deps, enabled, asked],
  );
  const reload = useRef(() => setAsked((n) => n + 1)).current;
  return { ...state, reload };
}
