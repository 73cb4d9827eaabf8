/**
 * Whether the API can be reached, as the contract's `connectivity` event: every request the live
 * source makes reports its outcome — no answer at all (a network fault, a timeout) is unreachable,
 * any HTTP answer (even a 401, 429 or 500) is reachable — and an event goes out when that changes,
 * the first answer included (until then it is unknown, so the status bar can say "not checked yet"
 * only while it is true). A page that opens later asks with `getConnectivity` (`now()`): a sync that
 * ran before any window opened (the demo at start) still counts.
 */
import type { EngineEvent } from '../../../src-shared/contract';

export type ConnectivityEvent = Extract<EngineEvent, { type: 'connectivity' }>;

/** The host of a base URL, for messages (never its query or credentials). */
export function apiHostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** Plain words for the status bar when the API cannot be reached. */
export function offlineMessage(baseUrl: string): string {
  return `Can't reach the API at ${apiHostOf(baseUrl)} — showing the local archive`;
}

export type Connectivity = {
  /** One request's outcome: reachable when any HTTP answer came back. */
  report(reachable: boolean, baseUrl: string): void;
  /** null until any request was made. */
  readonly online: boolean | null;
  /** What is known now, as the event would say it. */
  now(): { online: boolean | null; message?: string };
};

export function createConnectivity(emit: (event: ConnectivityEvent) => void): Connectivity {
  let online: boolean | null = null;
  let message: string | undefined;
  return {
    get online() {
      return online;
    },
    now: () => (message === undefined ? { online } : { online, message }),
    report(reachable, baseUrl) {
      if (reachable === online) return;
      online = reachable;
      message = reachable ? undefined : offlineMessage(baseUrl);
      emit(
        reachable
          ? { type: 'connectivity', online: true }
          : { type: 'connectivity', online: false, message: offlineMessage(baseUrl) },
      );
    },
  };
}
