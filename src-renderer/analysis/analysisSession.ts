/**
 * The Analysis view's run and its answer, kept for the session (issue 26, item 5: results were
 * lost when you left the view): one store per workspace's client, outside the view, so Table and
 * back finds the result — and a run still going finishes into it. The answer keeps the filters and
 * the input it was run with: the view marks it stale when the filters in force differ.
 */
import type { CallOutput } from '../../src-shared/contract';
import type { Filters } from '../../src-shared/filters';

export type AnalysisCall =
  'analyzeHotSpots' | 'analyzeKde' | 'analyzeNearRepeat' | 'analyzeRepeatLocations' | 'analyzeCompStat';

export type AnalysisResult = {
  call: AnalysisCall;
  value: CallOutput<AnalysisCall>;
  /** The filters it ran on and the parameters asked for (absent ones: the analysis's defaults). */
  filters: Filters;
  input: Record<string, unknown>;
};

export type RunState = {
  running: boolean;
  fraction: number;
  error: string | null;
  result: AnalysisResult | null;
  /** The running job's id (its progress events and cancel). */
  jobId: string | null;
};

export const IDLE: RunState = { running: false, fraction: 0, error: null, result: null, jobId: null };

export type AnalysisSession = {
  get(): RunState;
  set(update: (state: RunState) => RunState): void;
  subscribe(listener: () => void): () => void;
};

export function createAnalysisSession(): AnalysisSession {
  let state = IDLE;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(update) {
      const next = update(state);
      if (next === state) return;
      state = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

const sessions = new WeakMap<object, AnalysisSession>();

/** The session of a workspace (its client): the same store each time the view opens. */
export function analysisSessionOf(client: object): AnalysisSession {
  let session = sessions.get(client);
  if (!session) sessions.set(client, (session = createAnalysisSession()));
  return session;
}

/** Whether the filters in force are not those the result was computed on. */
export function isStale(result: Pick<AnalysisResult, 'filters'>, filters: Filters): boolean {
  return canonical(result.filters) !== canonical(filters);
}

/** A filter state's JSON with keys sorted and undefined left out (the same filters, the same text). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}
