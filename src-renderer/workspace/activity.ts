/**
 * What the renderer learns from engine events while the user works: each area's latest sync
 * progress, whether the API can be reached (the link), and a data version that moves whenever the
 * engine says the local archive changed (`incidentsChanged`: sent from the commits that changed
 * rows, at most every 250 ms) so counts, the table and the map re-query. Progress counters are
 * for the status line only; nothing here guesses changes from them. Pure; useWorkspaceState feeds it.
 *
 * The link is the latest evidence wins: a connectivity event, a sync that reached the API (a
 * request done) or could not (state offline), or a call that failed for want of a network.
 */
import type { EngineEvent, ErrorCode } from '../../src-shared/contract';

export type SyncProgress = Extract<EngineEvent, { type: 'syncProgress' }>;

export type Link = {
  /** null until anything is known. */
  online: boolean | null;
  /** Plain words from whoever reported it last, if any. */
  message?: string;
};

export type Activity = {
  /** The latest progress event of each area (kept after the run ends, for its outcome). */
  progress: ReadonlyMap<number, SyncProgress>;
  link: Link;
  /** Moves on each `incidentsChanged` event. */
  dataVersion: number;
};

export const initialActivity: Activity = {
  progress: new Map(),
  link: { online: null },
  dataVersion: 0,
};

export type ActivityAction =
  | { type: 'event'; event: EngineEvent }
  /** A call that needs the API succeeded (true) or failed with `code`. */
  | { type: 'callResult'; ok: true }
  | { type: 'callResult'; ok: false; code: ErrorCode; message?: string }
  /**
   * What the engine knew when the page opened (getConnectivity): a sync that ran before any window
   * was there (the demo at start) counts. Fresher evidence already in wins.
   */
  | { type: 'linkAtLoad'; online: boolean | null; message?: string };

const isTerminal = (state: SyncProgress['state']): boolean =>
  state === 'done' || state === 'failed' || state === 'paused';

/** What a progress event says about the link, or null when it says nothing. */
export function linkFromProgress(previous: SyncProgress | undefined, next: SyncProgress): Link | null {
  if (next.state === 'offline') return { online: false, ...(next.message ? { message: next.message } : {}) };
  if (next.state === 'failed' && next.error?.code === 'offline')
    return { online: false, message: next.error.message };
  const sameRun = previous?.runId === next.runId;
  const advanced = next.done > (sameRun ? (previous?.done ?? 0) : 0);
  if (advanced || (next.state === 'done' && next.done > 0)) return { online: true };
  if (next.state === 'waiting-rate' || next.state === 'retrying') return { online: true };
  return null;
}

function onProgress(state: Activity, event: SyncProgress): Activity {
  const previous = state.progress.get(event.areaId);
  const progress = new Map(state.progress);
  progress.set(event.areaId, event);
  const link = linkFromProgress(previous, event) ?? state.link;
  return { ...state, progress, link };
}

export function activityReducer(state: Activity, action: ActivityAction): Activity {
  switch (action.type) {
    case 'linkAtLoad':
      if (state.link.online !== null || action.online === null) return state;
      return {
        ...state,
        link: { online: action.online, ...(action.message ? { message: action.message } : {}) },
      };
    case 'callResult':
      if (action.ok) return state.link.online === true ? state : { ...state, link: { online: true } };
      if (action.code !== 'offline') return state;
      return { ...state, link: { online: false, ...(action.message ? { message: action.message } : {}) } };
    case 'event': {
      const event = action.event;
      switch (event.type) {
        case 'syncProgress':
          return onProgress(state, event);
        case 'incidentsChanged':
          return { ...state, dataVersion: state.dataVersion + 1 };
        case 'connectivity':
          return {
            ...state,
            link: { online: event.online, ...(event.message ? { message: event.message } : {}) },
          };
        default:
          return state;
      }
    }
  }
}

/** The areas whose sync is under way (not finished, failed or stopped). */
export function activeRuns(progress: ReadonlyMap<number, SyncProgress>): SyncProgress[] {
  return [...progress.values()].filter((p) => !isTerminal(p.state));
}
