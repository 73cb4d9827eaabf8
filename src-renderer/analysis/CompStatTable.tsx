/**
 * CompStat per area: types × periods with this period, the comparison, the difference and percent
 * change (only at a base ≥ 10), and coverage caveats. The caption names the filters counted (all
 * but the dates: each period runs to the as-of day). The Analysis view and the printed report
 * draw the same table; the report passes `days` (its date format for the ISO days in the words)
 * and `periods` to list each period's days under the table, where a tooltip cannot be read.
 */
import type { CompStatArea } from '../../src-shared/reportAnalyses';
import styles from './analysis.module.css';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/g;

export function CompStatTable({
  result,
  days = (d) => d,
  periods = false,
}: {
  /** `filterWords`: the filters the table counts (all but the dates), named in each caption. */
  result: { areas: CompStatArea[]; filterWords?: string[] };
  /** A day 'YYYY-MM-DD' as the page writes it (the view keeps ISO days). */
  days?: (day: string) => string;
  /** List each period's days (this period vs the year before) under the table. */
  periods?: boolean;
}) {
  const words = (text: string) => text.replace(ISO_DAY, (d) => days(d));
  return (
    <div data-testid="compstat">
      {result.areas.map((a) => (
        <section key={a.areaId} className={styles.compstatArea}>
          <table className={styles.table}>
            <caption>
              {a.area} — as of {days(a.today)} ({a.zone}); weeks start Monday
              {result.filterWords?.length ? (
                <span className={styles.compstatFilters} data-testid="compstat-filters">
                  Counted: {result.filterWords.join('; ')}.
                </span>
              ) : null}
            </caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                {a.periods.map((p) => (
                  <th
                    scope="col"
                    key={p.key}
                    title={`${p.current.from} to ${p.current.to} vs ${p.previous.from} to ${p.previous.to}`}
                  >
                    {p.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {a.rows.map((row) => (
                <tr key={row.type}>
                  <th scope="row">{row.type}</th>
                  {row.cells.map((c, k) => (
                    <td key={k}>
                      {c.current} <span className="muted">vs {c.previous}</span> {signed(c.difference)}
                      {c.percent === null ? '' : ` (${signed(c.percent)} %)`}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {periods ? (
            <ul className="muted small" data-testid="compstat-periods">
              {a.periods.map((p) => (
                <li key={p.key}>
                  {p.label}: {days(p.current.from)} to {days(p.current.to)} vs {days(p.previous.from)} to{' '}
                  {days(p.previous.to)}
                </li>
              ))}
            </ul>
          ) : null}
          {a.periods.some((p) => p.caveat) ? (
            <ul className="muted small">
              {a.periods
                .filter((p) => p.caveat)
                .map((p) => (
                  <li key={p.key}>
                    {p.label}: {words(p.caveat ?? '')}
                  </li>
                ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}
