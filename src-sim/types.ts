/** The simulator's public types. */
import type { CrimeType } from '../src-shared/crimeTypes';
import type { PlanId } from '../src-shared/plans';
import type { ClockMode, SimClock } from './clock';
import type { EvolveOptions, EvolveResult } from './data/evolve';
import type { BigBlock, Fixtures } from './data/fixtures';
import type { TruthIncident } from './data/serialize';
import type { SimKey } from './http/access';
import type { SinceBeforeWindow } from './http/context';
import type { Faults } from './http/faults';
import type { SimStats } from './http/stats';
import type { V1Variant } from './http/v1';

/** Incidents generated over the archive span: a count or a preset. */
export type Scale = number | 'tiny' | 'small' | 'medium' | 'large';

export const SCALES: Record<Exclude<Scale, number>, number> = {
  tiny: 5_000,
  small: 25_000,
  medium: 200_000,
  large: 1_000_000,
};

export type SimulatorOptions = {
  /** 0 or absent: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 1. */
  seed?: number;
  /** Default: demo-key, Developer, allowed from 127.0.0.1 and ::1. */
  keys?: SimKey[];
  /** The clock's start; default the real time. */
  now?: Date | string | number;
  /** 'real' (default) runs from `now`; 'manual' stands still until set or advanced. */
  clock?: ClockMode;
  faults?: Partial<Faults>;
  /** Default 'small' (25 000). 'large' is 1 000 000. */
  scale?: Scale;
  /** Archive depth in days; default max(400, longest key window + 30). */
  spanDays?: number;
  /** Socket addresses whose X-Forwarded-For is believed. */
  trustedProxies?: string[];
  /** A live `since` older than the plan window: 'window' (default) serves the window, 'empty' serves []. */
  sinceBeforeWindow?: SinceBeforeWindow;
  /**
   * How the live search measures `radius`: 'degrees' (default, sqrt(Δlat² + Δlon²) ≤ radius) or
   * 'great-circle' (great-circle distance ≤ radius degrees of arc, 69.09 mi each).
   */
  searchDistance?: 'degrees' | 'great-circle';
  /** The live `since`: 'exclusive' (default, occurred strictly after) or 'inclusive' (on or after). */
  sinceMode?: 'exclusive' | 'inclusive';
  /** The largest live `radius` answered; larger is a 400 naming `radius` (default 1). */
  maxRadiusDeg?: number;
  /**
   * A server that silently searches at most this many miles (× 0.01448° a mile, the spec's
   * conversion) whatever radius is asked, without an error. For testing clients; default none.
   */
  radiusClampMi?: number;
  /**
   * Serve the planned /v1 endpoints (default false: /v1 is a 404, as on the real service today);
   * `setV1` switches it while running.
   */
  v1?: boolean;
  /** How /v1 relates to the live surface: 'faithful' (default), or a v1 whose ids or times disagree. */
  v1Variant?: V1Variant;
  /** What the rate limiter measures time with: 'real' (default) or the simulator 'sim' clock. */
  rateClock?: 'real' | 'sim';
  /**
   * 'test' (default): the data the tests' ground truths are built on, fixtures included. 'demo':
   * San Francisco only, every incident at a block of a real named street (not in water or parks),
   * no fixtures, and the real San Francisco Protomaps archive at /basemap/demo.pmtiles.
   */
  profile?: 'test' | 'demo';
  /** The city whose basemap /basemap/demo.pmtiles is (demo profile); default San Francisco. */
  basemapCity?: string;
};

export type SimCity = { name: string; lat: number; lon: number; timezone: string; bigBlock?: BigBlock };

/** An area and a window; exactly one of radiusDeg, radiusMi (with lat/lon) or polygon. */
export type GroundTruthQuery = {
  lat?: number;
  lon?: number;
  /** Degree-space circle, as the live search measures. */
  radiusDeg?: number;
  /** Great-circle circle in miles, as v1 and the app's areas measure. */
  radiusMi?: number;
  polygon?: { lat: number; lon: number }[];
  /** Occurred at or after / at or before these instants. */
  since?: Date | string | number;
  until?: Date | string | number;
  /** The plan window to apply (by report time): a key's, a plan's, or days; default the first key's. */
  key?: string;
  plan?: PlanId;
  windowDays?: number;
  types?: CrimeType[];
};

export interface Simulator {
  readonly url: string;
  readonly port: number;
  readonly clock: SimClock;
  readonly cities: readonly SimCity[];
  /** The block with more than 500 incidents on one local day. */
  readonly bigBlock: BigBlock;
  readonly fixtures: Fixtures;
  readonly keys: readonly SimKey[];
  /** Incidents in the store (including not yet reported and removed). */
  readonly incidentCount: number;
  readonly generationMs: number;
  /** The demo profile's basemap (PMTiles, range requests), else null. */
  readonly basemapUrl: string | null;
  close(): Promise<void>;
  setFaults(faults: Partial<Faults>): void;
  /** Serve /v1 from now on (true) or answer 404 there (false), as when the service turns it on. */
  setV1(on: boolean): void;
  faults(): Faults;
  evolve(opts?: EvolveOptions): EvolveResult;
  /** What the live API would serve right now for the area and window, with internal fields; by cdid. */
  groundTruth(q: GroundTruthQuery): TruthIncident[];
  stats(): SimStats;
  resetStats(): void;
  resetRateLimits(): void;
}
