/** The report's optional list of the incidents themselves, newest first, each in its own local time. */
import type { ReportModel } from '../../src-shared/exports';
import { wallTimeText } from '../../src-shared/localTime';
import { colourOf } from '../map/palette';
import { count } from '../text/count';
import styles from './report.module.css';

export function IncidentList({ incidents }: { incidents: NonNullable<ReportModel['incidents']> }) {
  const { rows, total } = incidents;
  return (
    <section className={styles.incidentList} data-testid="report-incidents">
      <h2>Incidents</h2>
      <p className="muted">
        {rows.length < total
          ? `The newest ${count(rows.length)} of ${count(total)} incidents; the CSV export holds them all.`
          : `All ${count(total)} incidents, newest first.`}
      </p>
      <table className="data-table">
        <colgroup>
          <col style={{ width: '27%' }} />
          <col style={{ width: '20%' }} />
          <col />
          <col style={{ width: '13%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">When (local time)</th>
            <th scope="col">Type</th>
            <th scope="col">Address (block)</th>
            <th scope="col" className="num">
              Incident
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.cdid}>
              <td>{wallTimeText(r.occurredLocal, r.timezone, r.occurredUtc)}</td>
              <td>
                <span className="type-dot" style={{ background: colourOf(r.type) }} aria-hidden="true" />
                {r.type}
                {r.removed ? ' (removed)' : ''}
              </td>
              <td>{r.address}</td>
              <td className="num">{r.cdid}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
