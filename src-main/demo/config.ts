/**
 * What the demo is made of: the simulator's demo city (San Francisco, on the real streets of its
 * Protomaps archive), two areas over it — a dense downtown district and a neighbourhood — and a key whose plan lets
 * the normal rate limiter run without making anyone wait — the whole first sync takes seconds
 * (about 50 requests for about a thousand incidents), well within a minute.
 */
import type { PlanId } from '../../src-shared/plans';

export type DemoArea = { name: string; lat: number; lon: number; radiusMi: number };

export type DemoConfig = {
  /** The simulator's seed: the same seed and start clock give the same incidents. */
  seed: number;
  /** Incidents the simulator generates over its whole archive, across all its cities. */
  scale: number;
  /** The simulator's demo city (src-sim/demo/sanFrancisco.ts). */
  city: string;
  /** The demo areas, circles created in this order on a folder that has none (the first is the status's). */
  areas: readonly DemoArea[];
  plan: PlanId;
  ratePerMinute: number;
  windowDays: number;
  /** Delay the simulator adds to every answer, so progress looks like a network's. */
  latencyMs: number;
};

export const DEMO_CONFIG: DemoConfig = {
  seed: 1,
  scale: 12_000,
  city: 'San Francisco',
  areas: [
    // Union Square, the Tenderloin and Civic Center: the city's densest blocks.
    { name: 'Downtown San Francisco (demo)', lat: 37.7845, lon: -122.411, radiusMi: 0.8 },
    // Around 16th and 24th Streets along Mission and Valencia.
    { name: 'Mission District (demo)', lat: 37.76, lon: -122.417, radiusMi: 0.7 },
  ],
  plan: 'enterprise',
  ratePerMinute: 600,
  windowDays: 90,
  latencyMs: 30,
};
