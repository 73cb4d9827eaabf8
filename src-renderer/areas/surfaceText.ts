/** Words for an area's API surface (live or v1, and why), and v1's score and trend as sent. */
import type { AreaView } from '../../src-shared/sync';

export type SurfaceText = {
  /** The surface the area's runs use: the last run's, else the one new runs will use. */
  badge: 'live' | 'v1';
  /** Why Blotter is not on v1 (a mismatch, an unverified probe), or null when nothing to say. */
  note: string | null;
};

export function surfaceText(area: AreaView): SurfaceText {
  const run = area.lastRun?.surface;
  const s = area.surface ?? null;
  const badge = run && run !== 'live' ? 'v1' : run === 'live' ? 'live' : (s?.using ?? 'live');
  // v1 simply not live yet is the normal case today: no note. A v1 that answers but is not used is.
  const note = s && (s.state === 'mismatch' || s.state === 'unverified') ? s.reason : null;
  return { badge, note };
}

export function scoreText(score: NonNullable<NonNullable<AreaView['score']>['score']>): string {
  const b = score.breakdown;
  return `Safety score ${score.score} (${score.grade}) within ${Number(score.radiusMi.toFixed(2))} mi — violent ${b.violent}, property ${b.property}, quality of life ${b.qualityOfLife}`;
}

/** Bar heights 0–100 for a trend's buckets (the largest is 100). */
export function trendBars(counts: readonly number[]): number[] {
  const max = Math.max(1, ...counts);
  return counts.map((c) => Math.round((100 * c) / max));
}
