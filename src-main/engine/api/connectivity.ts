/**
 * Whether the API can be reached, as the contract's `connectivity` event: every request the live
 * source makes reports its outcome — no answer at all (a network fault, a timeout) is unreachable,
 * any HTTP answer (even a 401, 429 or 500) is reachable — and an event goes out only when that
 * changes. Until the first failure the API is taken to be reachable, so a working setup never hears
 * of it.
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
  readonly online: boolean;
};

export function createConnectivity(emit: (event: ConnectivityEvent) => void): Connectivity {
  let online = true;
  return {
    get online() {
      return online;
    },
    report(reachable, baseUrl) {
      if (reachable === online) return;
      online = reachable;
      emit(
        reachable
          ? { type: 'connectivity', online: true }
          : { type: 'connectivity', online: false, message: offlineMessage(baseUrl) },
      );
    },
  };
}
