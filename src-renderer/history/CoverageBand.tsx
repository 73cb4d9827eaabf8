/**
 * Which days the archive holds completely (green), provisionally (amber: recent days still being
 * reported) or not at all (red), as a band over the range, with the runs listed for screen readers.
 */
import type { CoverageResult, CoverageStatus } from '../../src-shared/incidentQueries';
import { dayNumber } from '../../src-shared/filters';
import { dayText } from '../filters/rangeText';
import { coverageSummary } from './historyText';
import styles from './history.module.css';

const LABEL: Record<CoverageStatus, string> = {
  complete: 'Complete',
  saturated: 'Complete (dense days, finished by splitting)',
  provisional: 'Provisional',
  missing: 'Missing',
};

const STATUS_CLASS: Record<CoverageStatus, string | undefined> = {
  complete: styles.coverageComplete,
  saturated: styles.coverageSaturated,
  provisional: styles.coverageProvisional,
  missing: styles.coverageMissing,
};

export function CoverageBand({ band }: { band: CoverageResult }) {
  const from = band.from ? dayNumber(band.from) : 0;
  const to = band.to ? dayNumber(band.to) : 0;
  const days = Math.max(1, to - from + 1);
  return (
    <div className="coverage" data-testid="coverage-band">
      <p>{coverageSummary(band)}</p>
      {band.runs.length > 0 ? (
        <>
          <div className={styles.coverageBand} aria-hidden="true">
            {band.runs.map((run) => {
              const left = ((dayNumber(run.from) - from) / days) * 100;
              const width = ((dayNumber(run.to) - dayNumber(run.from) + 1) / days) * 100;
              return (
                <span
                  key={run.from}
                  className={`${styles.coverageRun} ${STATUS_CLASS[run.status]}`}
                  style={{ left: `${left}%`, width: `${width}%` }}
                  title={`${LABEL[run.status]}: ${dayText(run.from)} – ${dayText(run.to)}`}
                />
              );
            })}
          </div>
          <div className={styles.coverageAxis} aria-hidden="true">
            <span>{band.from ? dayText(band.from) : ''}</span>
            <span>{band.to ? dayText(band.to) : ''}</span>
          </div>
          <ul className={styles.coverageLegend}>
            {(['complete', 'saturated', 'provisional', 'missing'] as const).map((s) => (
              <li key={s}>
                <span className={`${styles.coverageSwatch} ${STATUS_CLASS[s]}`} aria-hidden="true" />
                {LABEL[s]}
              </li>
            ))}
          </ul>
          <details className={styles.coverageRuns}>
            <summary>List the runs of days</summary>
            <ul>
              {band.runs.map((run) => (
                <li key={run.from}>
                  {LABEL[run.status]}: {dayText(run.from)}
                  {run.to !== run.from ? ` – ${dayText(run.to)}` : ''}
                </li>
              ))}
            </ul>
          </details>
        </>
      ) : null}
    </div>
  );
}
