/**
 * This period against the one before it and against the same dates a year earlier: counts,
 * absolute and percent change, and plain words wherever the archive does not hold a period fully
 * ("The archive only covers 12 of these 30 days") — a change over such a period is not a trend.
 */
import type { CompareResult } from '../../src-shared/incidentQueries';
import { count } from '../text/count';
import { changeWords, coverageNote, periodText } from './historyText';

type Period = CompareResult['current'];

function Card({
  title,
  period,
  change,
}: {
  title: string;
  period: Period;
  change?: CompareResult['vsPrevious'];
}) {
  const words = change ? changeWords(change) : null;
  const note = coverageNote(period);
  return (
    <article className={`compare-card${change && !change.comparable ? ' compare-caveat' : ''}`}>
      <h3>{title}</h3>
      <p className="compare-period">{periodText(period)}</p>
      <p className="compare-total">
        {count(period.total)} <span className="muted">incidents</span>
      </p>
      {words ? (
        <p className={`compare-change change-${words.direction}`}>
          <span className="muted">Change to this period: </span>
          <span>{words.figure}</span>
          {words.percent ? (
            <span> ({words.percent})</span>
          ) : (
            <span className="muted"> (no percentage: none then)</span>
          )}
        </p>
      ) : null}
      {note ? <p className="compare-note">{note}</p> : null}
      {change && !change.comparable ? (
        <p className="compare-note">
          Not a like-for-like comparison: the archive does not hold both periods fully.
        </p>
      ) : null}
    </article>
  );
}

export function CompareCards({ result, basis }: { result: CompareResult; basis: string | null }) {
  return (
    <div className="compare-cards" data-testid="compare-cards">
      <Card title="This period" period={result.current} />
      <Card title="Previous period" period={result.previous} change={result.vsPrevious} />
      <Card title="A year earlier" period={result.yearAgo} change={result.vsYearAgo} />
      {basis ? <p className="compare-basis muted">{basis}</p> : null}
    </div>
  );
}
