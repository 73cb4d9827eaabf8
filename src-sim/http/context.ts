/** What a route handler gets: the data, the simulator's clock reading, the caller's key, the query. */
import type { Dataset } from '../data/generate';
import type { ResolvedKey } from './access';

export type SinceBeforeWindow = 'window' | 'empty';

/**
 * How the live search reads the parts of the spec it leaves open (see README, "Other readings"):
 * the defaults are the readings the tests' ground truths were built on.
 */
export type LiveReading = {
  /** 'degrees' (default): sqrt(Δlat² + Δlon²) ≤ radius. 'great-circle': ≤ radius degrees of arc. */
  distance: 'degrees' | 'great-circle';
  /** 'exclusive' (default): occurred strictly after `since`. 'inclusive': on or after it. */
  since: 'exclusive' | 'inclusive';
  /** A larger `radius` is a 400 naming `radius` (default 1). */
  maxRadiusDeg: number;
  /** Silently search at most this radius (degrees) whatever is asked, without an error; null: no clamp. */
  radiusClampDeg: number | null;
};

export const DEFAULT_LIVE_READING: LiveReading = {
  distance: 'degrees',
  since: 'exclusive',
  maxRadiusDeg: 1,
  radiusClampDeg: null,
};

export type HandlerContext = {
  data: Dataset;
  /** The simulator clock, ms since the epoch. */
  now: number;
  key: ResolvedKey;
  query: URLSearchParams;
  /** What a live `since` older than the plan window gets (see README). */
  sinceBeforeWindow: SinceBeforeWindow;
  /** The live search's readings of what the spec leaves open. */
  live: LiveReading;
};
