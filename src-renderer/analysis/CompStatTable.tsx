/**
 * CompStat per area or per boundary feature (issue 27): the violent and property groups with
 * their types, Arrest, Other and the total, by week to date, last 7 days, last 28 days and year
 * to date — each period's count, its change from the days just before (week to date: the same
 * weekdays of the week before) and from the same days a year earlier, percent change only at a
 * base ≥ 10. A comparison the archive cannot make has no column: the caption says so in one short
 * note. The caption names the filters counted (all but the dates: each period runs to the as-of
 * day). The Analysis view and the printed report draw the same table; the report passes `days`
 * (its date format for the ISO days in the words) and `periods` to list each period's days under
 * the table, where a tooltip cannot be read.
 */
import type { CompStatArea } from '../../src-shared/reportAnalyses';
import styles from './analysis.module.css';

type Period = CompStatArea['periods'][number];
type Comparison = { base: number; change: number; percent: number | null } | null;

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/g;

/** The comparison columns a period shows: those the archive can make. */
function columnsOf(p: Period): { key: 'prior' | 'yearAgo'; head: string }[] {
  const out: { key: 'prior' | 'yearAgo'; head: string }[] = [];
  if (p.prior?.compared)
    out.push({ key: 'prior', head: p.key === 'week_to_date' ? 'vs week before' : 'vs days before' });
  if (p.yearAgo.compared) out.push({ key: 'yearAgo', head: 'vs year earlier' });
  return out;
}

function ComparisonCell({ c }: { c: Comparison }) {
  if (!c) return <td />;
  return (
    <td title={`from ${c.base}`}>
      <span className="muted">{c.base}</span> {signed(c.change)}
      {c.percent === null ? '' : ` (${signed(c.percent)} %)`}
    </td>
  );
}

export function CompStatTable({
  result,
  days = (d) => d,
  periods = false,
}: {
  /** `filterWords`: the filters the table counts (all but the dates), named in each caption. */
  result: { areas: CompStatArea[]; filterWords?: string[] };
  /** A day 'YYYY-MM-DD' as the page writes it (the view keeps ISO days). */
  days?: (day: string) => string;
  /** List each period's days (and those it is compared with) under the table. */
  periods?: boolean;
}) {
  const words = (text: string) => text.replace(ISO_DAY, (d) => days(d));
  return (
    <div data-testid="compstat">
      {result.areas.map((a) => {
        const cols = a.periods.map(columnsOf);
        return (
          <section key={`${a.areaId}-${a.feature?.featureId ?? 0}`} className={styles.compstatArea}>
            <table className={styles.table} data-testid="compstat-table">
              <caption>
                {a.feature ? `${a.feature.layer}: ${a.area}` : a.area} — as of {days(a.today)} ({a.zone});
                weeks start Monday
                {result.filterWords?.length ? (
                  <span className={styles.compstatFilters} data-testid="compstat-filters">
                    Counted: {result.filterWords.join('; ')}.
                  </span>
                ) : null}
                {a.notes.map((n) => (
                  <span key={n} className={styles.compstatFilters} data-testid="compstat-note">
                    {words(n)}
                  </span>
                ))}
              </caption>
              <thead>
                <tr>
                  <th scope="col" rowSpan={2}>
                    Offense
                  </th>
                  {a.periods.map((p, k) => (
                    <th
                      scope="colgroup"
                      key={p.key}
                      colSpan={1 + (cols[k]?.length ?? 0)}
                      title={`${p.current.from} to ${p.current.to}`}
                    >
                      {p.label}
                    </th>
                  ))}
                </tr>
                <tr>
                  {a.periods.flatMap((p, k) => [
                    <th scope="col" key={`${p.key}-n`}>
                      Count
                    </th>,
                    ...(cols[k] ?? []).map((c) => (
                      <th scope="col" key={`${p.key}-${c.key}`}>
                        {c.head}
                      </th>
                    )),
                  ])}
                </tr>
              </thead>
              <tbody>
                {a.rows.map((row) => (
                  <tr key={row.label} data-kind={row.kind}>
                    <th scope="row">{row.kind === 'type' ? row.label : <strong>{row.label}</strong>}</th>
                    {row.cells.flatMap((c, k) => [
                      <td key={`${k}-n`}>
                        {row.kind === 'type' ? c.current : <strong>{c.current}</strong>}
                      </td>,
                      ...(cols[k] ?? []).map((col) => (
                        <ComparisonCell key={`${k}-${col.key}`} c={c[col.key]} />
                      )),
                    ])}
                  </tr>
                ))}
              </tbody>
            </table>
            {periods ? (
              <ul className="muted small" data-testid="compstat-periods">
                {a.periods.map((p) => (
                  <li key={p.key}>
                    {p.label}: {days(p.current.from)} to {days(p.current.to)}
                    {p.prior?.compared ? `; before: ${days(p.prior.from)} to ${days(p.prior.to)}` : ''}
                    {p.yearAgo.compared
                      ? `; year earlier: ${days(p.yearAgo.from)} to ${days(p.yearAgo.to)}`
                      : ''}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
