/**
 * The addresses with two or more incidents under the filters, most first (block-level addresses,
 * as the API gives them), each with its latest incident in that incident's local time and zone.
 */
import type { TopLocationsResult } from '../../src-shared/incidentQueries';
import { instantText } from '../../src-shared/localTime';
import { colourOf } from '../map/palette';
import { count } from '../text/count';
import styles from './history.module.css';

export function TopLocations({ locations }: { locations: TopLocationsResult['locations'] }) {
  if (locations.length === 0)
    return (
      <p className="muted" data-testid="top-locations-none">
        No address has two or more incidents under these filters.
      </p>
    );
  return (
    <table className={`data-table ${styles.topLocations}`} data-testid="top-locations">
      <caption className="visually-hidden">
        Repeat locations (two or more incidents), most incidents first
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Address (block)</th>
          <th scope="col" className="num">
            Incidents
          </th>
          <th scope="col">Most common type</th>
          <th scope="col">Latest (local time)</th>
        </tr>
      </thead>
      <tbody>
        {locations.map((l, k) => (
          <tr key={`${l.address}-${k}`}>
            <td>{k + 1}</td>
            <td>{l.address}</td>
            <td className="num">{count(l.count)}</td>
            <td>
              <span className="type-dot" style={{ background: colourOf(l.topType) }} aria-hidden="true" />
              {l.topType}
            </td>
            <td>{instantText(l.lastUtc, l.lastZone)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
