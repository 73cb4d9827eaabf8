/**
 * An import's rows with an address but no coordinates (issue 28): how many, the zone their times
 * are read in, and the first of them with why. They are imported as unplaced — kept outside the
 * map until the offline locator places them (`blotter places add FILE`, `places retry`).
 */
import type { ImportPreview } from '../../src-shared/exports';
import { count } from '../text/count';

const ZONE_FROM = {
  mapping: 'the mapping’s zone',
  file: 'the zone of most of the file’s placed rows',
  area: 'your first area’s zone',
  none: 'no zone was known',
} as const;

export function UnplacedRows({ unplaced }: { unplaced: NonNullable<ImportPreview['unplaced']> }) {
  const u = unplaced;
  return (
    <table className="data-table import-unplaced" data-testid="import-unplaced">
      <caption>
        {count(u.rows)} {u.rows === 1 ? 'row has' : 'rows have'} an address but no coordinates: imported as
        unplaced, placed from their address when a reference can (times read in {u.zone},{' '}
        {ZONE_FROM[u.zoneFrom]}){u.rows > u.listed.length ? `; the first ${count(u.listed.length)}` : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          <th scope="col">Address</th>
          <th scope="col">Why unplaced</th>
        </tr>
      </thead>
      <tbody>
        {u.listed.map((r) => (
          <tr key={r.row}>
            <td>{r.row}</td>
            <td>{r.address}</td>
            <td>{r.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
