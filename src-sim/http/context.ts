/** What a route handler gets: the data, the simulator's clock reading, the caller's key, the query. */
import type { Dataset } from '../data/generate';
import type { ResolvedKey } from './access';

export type SinceBeforeWindow = 'window' | 'empty';

export type HandlerContext = {
  data: Dataset;
  /** The simulator clock, ms since the epoch. */
  now: number;
  key: ResolvedKey;
  query: URLSearchParams;
  /** What a live `since` older than the plan window gets (see README). */
  sinceBeforeWindow: SinceBeforeWindow;
};
