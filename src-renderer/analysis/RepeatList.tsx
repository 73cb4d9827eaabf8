/** Repeat locations, largest first, each with a button that shows its incidents in the table. */
import type { RepeatLocationsOutput, RepeatGroupOut } from '../../src-shared/analysis';
import styles from './analysis.module.css';

export function RepeatList({
  result,
  onShow,
}: {
  result: RepeatLocationsOutput;
  onShow: (g: RepeatGroupOut) => void;
}) {
  return (
    <table className={styles.table} data-testid="repeat-list">
      <caption>
        {result.totalGroups} places with two or more incidents
        {result.groups.length < result.totalGroups ? ` (the ${result.groups.length} largest shown)` : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">Incidents</th>
          <th scope="col">Place</th>
          <th scope="col">First</th>
          <th scope="col">Last</th>
          <th scope="col">
            <span className="visually-hidden">Drill down</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {result.groups.map((g, k) => (
          <tr key={k}>
            <td>{g.count}</td>
            <td>
              {g.lat.toFixed(5)}, {g.lon.toFixed(5)}
              {g.radiusM > 0 ? <span className="muted"> (within {Math.round(g.radiusM)} m)</span> : null}
            </td>
            <td>{g.first}</td>
            <td>{g.last}</td>
            <td>
              <button type="button" onClick={() => onShow(g)}>
                Show incidents
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
