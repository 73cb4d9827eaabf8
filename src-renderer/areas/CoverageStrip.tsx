/** Coverage as a strip of days: complete, provisional, missing; colour, legend and labels for readers. */
import type { CoverageResult } from '../../src-shared/incidentQueries';
import { dayText } from '../filters/rangeText';
import { coverageSegments, coverageSummary, type Segment } from './coverageSegments';
import styles from './areas.module.css';

const STATUS_CLASS: Record<Segment['status'], string | undefined> = {
  complete: styles.coverageComplete,
  saturated: styles.coverageSaturated,
  provisional: styles.coverageProvisional,
  missing: styles.coverageMissing,
};

export function CoverageStrip({ coverage }: { coverage: CoverageResult | null }) {
  if (!coverage) return <p className={`muted ${styles.coverageNone}`}>Coverage: loading…</p>;
  const segments = coverageSegments(coverage);
  if (segments.length === 0)
    return <p className={`muted ${styles.coverageNone}`}>Coverage: nothing synced yet.</p>;
  return (
    <figure className={styles.coverage} data-testid="coverage-strip">
      <figcaption>
        <span>Coverage</span>
        <span className="muted">{coverageSummary(coverage)}</span>
      </figcaption>
      <ul className={styles.coverageStrip} aria-label={`Coverage by day: ${coverageSummary(coverage)}`}>
        {segments.map((s) => (
          <li
            key={s.from}
            className={`${styles.coverageRun} ${STATUS_CLASS[s.status]}`}
            data-status={s.status}
            style={{ flexGrow: s.days }}
            title={s.label}
            aria-label={s.label}
          />
        ))}
      </ul>
      <div className={`${styles.coverageAxis} muted`} aria-hidden="true">
        <span>{coverage.from ? dayText(coverage.from) : ''}</span>
        <span>{coverage.to ? dayText(coverage.to) : ''}</span>
      </div>
      <ul className={styles.coverageLegend} aria-hidden="true">
        <li>
          <span className={`${styles.coverageKey} ${styles.coverageComplete}`} /> Complete
        </li>
        <li>
          <span className={`${styles.coverageKey} ${styles.coverageProvisional}`} /> Provisional (still being
          reported)
        </li>
        <li>
          <span className={`${styles.coverageKey} ${styles.coverageMissing}`} /> Missing
        </li>
      </ul>
    </figure>
  );
}
