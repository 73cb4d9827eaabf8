/** Coverage as a strip of days: complete, provisional, missing; colour, legend and labels for readers. */
import type { CoverageResult } from '../../src-shared/incidentQueries';
import { dayText } from '../filters/rangeText';
import { coverageSegments, coverageSummary } from './coverageSegments';

export function CoverageStrip({ coverage }: { coverage: CoverageResult | null }) {
  if (!coverage) return <p className="muted coverage-none">Coverage: loading…</p>;
  const segments = coverageSegments(coverage);
  if (segments.length === 0) return <p className="muted coverage-none">Coverage: nothing synced yet.</p>;
  return (
    <figure className="coverage" data-testid="coverage-strip">
      <figcaption>
        <span>Coverage</span>
        <span className="muted">{coverageSummary(coverage)}</span>
      </figcaption>
      <ul className="coverage-strip" aria-label={`Coverage by day: ${coverageSummary(coverage)}`}>
        {segments.map((s) => (
          <li
            key={s.from}
            className={`coverage-run coverage-${s.status}`}
            style={{ flexGrow: s.days }}
            title={s.label}
            aria-label={s.label}
          />
        ))}
      </ul>
      <div className="coverage-axis muted" aria-hidden="true">
        <span>{coverage.from ? dayText(coverage.from) : ''}</span>
        <span>{coverage.to ? dayText(coverage.to) : ''}</span>
      </div>
      <ul className="coverage-legend" aria-hidden="true">
        <li>
          <span className="coverage-key coverage-complete" /> Complete
        </li>
        <li>
          <span className="coverage-key coverage-provisional" /> Provisional (still being reported)
        </li>
        <li>
          <span className="coverage-key coverage-missing" /> Missing
        </li>
      </ul>
    </figure>
  );
}
