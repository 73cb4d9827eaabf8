/**
 * This period against the one before it and against the same dates a year earlier: counts,
 * absolute and percent change, and plain words wherever the archive does not hold a period fully
 * ("The archive only covers 12 of these 30 days") — a change over such a period is not a trend.
 * A percentage is shown only when the earlier period holds at least MIN_PERCENT_BASE incidents
 * (src-shared/percentChange.ts); below that the two counts say what happened.
 */
import type { CompareResult } from '../../src-shared/incidentQueries';
import { count } from '../text/count';
import { changeWords, coverageNote, periodText } from './historyText';
import styles from './history.module.css';

type Period = CompareResult['current'];

const DIRECTION = { up: styles.changeUp, down: styles.changeDown, same: undefined };

function Card({
  title,
  period,
  current,
  change,
}: {
  title: string;
  period: Period;
  current?: Period;
  change?: CompareResult['vsPrevious'];
}) {
  const words = change && current ? changeWords(change, period.total, current.total) : null;
  const note = coverageNote(period);
  const caveat = change && !change.comparable;
  return (
    <article className={caveat ? `${styles.compareCard} ${styles.compareCaveat}` : styles.compareCard}>
      <h3>{title}</h3>
      <p className={styles.comparePeriod}>{periodText(period)}</p>
      <p className={styles.compareTotal}>
        {count(period.total)} <span className="muted">incidents</span>
      </p>
      {words ? (
        <p
          className={`${styles.compareChange} ${DIRECTION[words.direction] ?? ''}`}
          data-testid="compare-change"
        >
          <span className="muted">Change to this period: </span>
          <span>{words.figure}</span>
          {words.percent ? <span> ({words.percent})</span> : <span className="muted"> ({words.counts})</span>}
        </p>
      ) : null}
      {note ? <p className={styles.compareNote}>{note}</p> : null}
      {caveat ? (
        <p className={styles.compareNote}>
          Not a like-for-like comparison: the archive does not hold both periods fully.
        </p>
      ) : null}
    </article>
  );
}

export function CompareCards({ result, basis }: { result: CompareResult; basis: string | null }) {
  return (
    <div className={styles.compareCards} data-testid="compare-cards">
      <Card title="This period" period={result.current} />
      <Card
        title="Previous period"
        period={result.previous}
        current={result.current}
        change={result.vsPrevious}
      />
      <Card
        title="A year earlier"
        period={result.yearAgo}
        current={result.current}
        change={result.vsYearAgo}
      />
      {basis ? <p className={`${styles.compareBasis} muted`}>{basis}</p> : null}
    </div>
  );
}
