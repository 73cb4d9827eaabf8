/**
 * Which API surface the area's syncs use ("live" or "v1"), why Blotter stays on live when v1
 * answers but is not used, and — with v1 — the service's safety score and weekly trend, as sent.
 */
import type { AreaView } from '../../src-shared/sync';
import { scoreText, surfaceText, trendBars } from './surfaceText';
import styles from './surface.module.css';

export function SurfaceInfo({ area }: { area: AreaView }) {
  const { badge, note } = surfaceText(area);
  const score = area.score?.score ?? null;
  const trends = area.score?.trends ?? null;
  const counts = trends?.buckets.map((b) => b.count) ?? [];
  return (
    <div data-testid="area-surface">
      <p className={styles.surface}>
        <span
          className={styles.badge}
          data-testid="surface-badge"
          title={
            badge === 'v1' ? 'Synced through the API’s v1 surface' : 'Synced through the API’s live surface'
          }
        >
          {badge}
        </span>
        {score ? <span data-testid="area-score">{scoreText(score)}</span> : null}
        {trends && counts.length > 0 ? (
          <span
            className={styles.trend}
            data-testid="area-trend"
            role="img"
            aria-label={`Incidents per ${trends.interval}, last ${counts.length}: ${counts.join(', ')}`}
          >
            {trendBars(counts).map((h, i) => (
              <span key={i} className={styles.bar} style={{ height: `${h}%` }} />
            ))}
          </span>
        ) : null}
      </p>
      {note ? (
        <p className={`muted ${styles.note}`} data-testid="surface-note">
          {note}
        </p>
      ) : null}
    </div>
  );
}
