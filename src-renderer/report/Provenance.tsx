/**
 * The report's provenance box: what every number counts — the filters in words, the plan window,
 * each area's last sync and coverage gaps, how the headline's analyses ran, and the caveats — with
 * every time in the bulletin's zone.
 */
import type { Provenance as ProvenanceData } from '../../src-shared/exports';
import { dayRangeText, dayText, instantText } from '../../src-shared/localTime';
import { count } from '../text/count';
import styles from './report.module.css';

export function Provenance({
  provenance: p,
  zone,
  filterWords = [],
  methods = [],
}: {
  provenance: ProvenanceData;
  /** The zone every time is written in (the bulletin's); this computer's when not given. */
  zone?: string;
  filterWords?: string[];
  /** How the analyses behind the headline ran, one line each. */
  methods?: string[];
}) {
  /** When an area was last synced, in the bulletin's zone with its abbreviation, like every report time. */
  const when = (ms: number | null): string => (ms ? instantText(ms, zone) : 'never');
  return (
    <div className={`${styles.box} ${styles.provenance}`} data-testid="report-provenance">
      <h2>Where these figures come from</h2>
      {filterWords.length > 0 ? <p data-testid="report-filters">Filters: {filterWords.join('; ')}.</p> : null}
      <p>
        Plan: {p.plan.label}; the API serves the last {p.plan.windowDays} days. Coverage is judged{' '}
        {p.coverageBasis === 'ledger'
          ? 'from the sync’s coverage ledger'
          : 'from the dates the archive holds'}
        {p.range.from && p.range.to ? `, ${dayRangeText(p.range.from, p.range.to)}` : ''}.
      </p>
      {p.areas.length > 0 ? (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Area</th>
              <th scope="col">Last synced</th>
              <th scope="col">Gaps in the archive</th>
              <th scope="col" className="num">
                Provisional days
              </th>
            </tr>
          </thead>
          <tbody>
            {p.areas.map((a) => (
              <tr key={a.id}>
                <td>{a.name}</td>
                <td>{when(a.lastSyncedAt)}</td>
                <td>
                  {a.gaps.length === 0
                    ? 'none'
                    : `${count(a.missingDays)} days: ${a.gaps
                        .slice(0, 4)
                        .map((g) => (g.from === g.to ? dayText(g.from) : dayRangeText(g.from, g.to)))
                        .join('; ')}${a.gaps.length > 4 ? ` and ${a.gaps.length - 4} more` : ''}`}
                </td>
                <td className="num">{count(a.provisionalDays)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No saved area is in scope.</p>
      )}
      <ul>
        {methods.map((n) => (
          <li key={n}>{n}</li>
        ))}
        {p.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
