/**
 * What the demo is made of: one simulated city, a modest area over it, and a key whose plan lets
 * the normal rate limiter run without making anyone wait — the whole first sync takes seconds
 * (about 50 requests for about a thousand incidents), well within a minute.
 */
import type { PlanId } from '../../src-shared/plans';

export type DemoConfig = {
  /** The simulator's seed: the same seed and start clock give the same incidents. */
  seed: number;
  /** Incidents the simulator generates over its whole archive, across all its cities. */
  scale: number;
  /** A simulator city (src-sim/data/cities.ts). */
  city: string;
  /** The demo area: a circle of this radius around the city centre. */
  radiusMi: number;
  plan: PlanId;
  ratePerMinute: number;
  windowDays: number;
  /** Delay the simulator adds to every answer, so progress looks like a network's. */
  latencyMs: number;
};

export const DEMO_CONFIG: DemoConfig = {
  seed: 1,
  scale: 25_000,
  city: 'Chicago',
  radiusMi: 2,
  plan: 'enterprise',
  ratePerMinute: 600,
  windowDays: 90,
  latencyMs: 30,
};

export const demoAreaName = (city: string): string => `${city} (demo)`;
