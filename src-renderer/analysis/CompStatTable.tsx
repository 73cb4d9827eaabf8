/** CompStat per area: types × periods with this period, the comparison, the difference and percent change (only at a base ≥ 10), and coverage caveats. */
import type { CompStatOutput } from '../../src-shared/analysis';
import styles from './analysis.module.css';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function CompStatTable({ result }: { result: CompStatOutput }) {
  return (
    <div data-testid="compstat">
      {result.areas.map((a) => (
        <section key={a.areaId} className={styles.compstatArea}>
          <table className={styles.table}>
            <caption>
              {a.area} — as of {a.today} ({a.zone}); weeks start Monday
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
          {a.periods.some((p) => p.caveat) ? (
            <ul className="muted small">
              {a.periods
                .filter((p) => p.caveat)
                .map((p) => (
                  <li key={p.key}>
                    {p.label}: {p.caveat}
                  </li>
                ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}
