/** The report's provenance box: each area's last sync and coverage gaps, the plan window, and the caveats. */
import type { Provenance as ProvenanceData } from '../../src-shared/exports';
import { dayRangeText, dayText, instantText } from '../../src-shared/localTime';
import { count } from '../text/count';
import styles from './report.module.css';

/** When an area was last synced: this computer's local time with its zone, like every report date. */
const when = (ms: number | null): string => (ms ? instantText(ms) : 'never');

export function Provenance({ provenance: p }: { provenance: ProvenanceData }) {
  return (
    <div className={`${styles.box} ${styles.provenance}`} data-testid="report-provenance">
      <h2>Where these figures come from</h2>
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
        {p.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
