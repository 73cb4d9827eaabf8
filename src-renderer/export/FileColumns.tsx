/** The columns of an inspected file with its first rows' values, as the mapping editor reads them. */
import type { ImportInspection } from '../../src-shared/importMappingCalls';
import { count } from '../text/count';
import styles from './mapping.module.css';

const ROWS = 3;

export function FileColumns({ inspection }: { inspection: ImportInspection }) {
  const rows = inspection.sample.slice(0, ROWS);
  return (
    <div className={styles.fileColumns}>
      <table className="data-table" data-testid="file-columns">
        <caption>
          {inspection.fileName}: {count(inspection.columns.length)} columns, the first rows
        </caption>
        <thead>
          <tr>
            {inspection.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, k) => (
            <tr key={k}>
              {inspection.columns.map((c) => (
                <td key={c}>{r[c] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
