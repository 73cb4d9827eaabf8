/** The addresses with the most incidents under the filters (block-level addresses, as the API gives them). */
import type { TopLocationsResult } from '../../src-shared/incidentQueries';
import { colourOf } from '../map/palette';
import { count } from '../text/count';

const when = (utc: number): string => new Date(utc).toISOString().slice(0, 10);

export function TopLocations({ locations }: { locations: TopLocationsResult['locations'] }) {
  if (locations.length === 0) return <p className="muted">No incidents match the filters.</p>;
  return (
    <table className="data-table top-locations" data-testid="top-locations">
      <caption className="visually-hidden">Repeat locations, most incidents first</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Address (block)</th>
          <th scope="col" className="num">
            Incidents
          </th>
          <th scope="col">Most common type</th>
          <th scope="col">Latest (UTC date)</th>
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
            <td>{when(l.lastUtc)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
