/**
 * Repeat locations, most incidents first, in History's words (issue 26, item 5): the block
 * address, the number of incidents, the most common type and the first and latest incident in
 * their local time — the engine groups both lists by one rule. Each place has a button that shows
 * its incidents in the table.
 */
import type { RepeatLocationsOutput, RepeatGroupOut } from '../../src-shared/analysis';
import { instantText } from '../../src-shared/localTime';
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
          <th scope="col">#</th>
          <th scope="col">Address (block)</th>
          <th scope="col">Incidents</th>
          <th scope="col">Most common type</th>
          <th scope="col">First (local time)</th>
          <th scope="col">Latest (local time)</th>
          <th scope="col">
            <span className="visually-hidden">Drill down</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {result.groups.map((g, k) => (
          <tr key={k}>
            <td>{k + 1}</td>
            <td data-testid="repeat-address">
              {g.address}
              {Number(result.parameters.distance_m ?? 0) > 0 ? (
                <span className="muted"> (within {Math.round(g.radiusM)} m)</span>
              ) : null}
            </td>
            <td data-testid="repeat-count">{g.count}</td>
            <td>{g.topType}</td>
            <td>{instantText(g.firstUtc, g.firstZone)}</td>
            <td>{instantText(g.lastUtc, g.lastZone)}</td>
            <td>
              <button type="button" onClick={() => onShow(g)} aria-label={`Show incidents of ${g.address}`}>
                Show incidents
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
