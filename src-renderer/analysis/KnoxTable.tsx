/**
 * The Knox near-repeat table: one row per distance × days cell, significant cells marked (each with
 * a button that lists its pairs), and the plain summary.
 */
import type { KnoxCellOut, NearRepeatOutput } from '../../src-shared/analysis';
import styles from './analysis.module.css';

export function KnoxTable({
  result,
  onPairs,
}: {
  result: NearRepeatOutput;
  onPairs?: (cell: KnoxCellOut) => void;
}) {
  const unit = String(result.parameters.space_unit ?? 'm');
  const iterations = Number(result.parameters.iterations ?? 0);
  return (
    <div data-testid="knox">
      <ul className={styles.summary} data-testid="knox-summary">
        {result.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <table className={styles.table}>
        <caption>
          Knox test: pairs of incidents close in space and time, against {iterations} random shuffles of the
          dates
        </caption>
        <thead>
          <tr>
            <th scope="col">Distance ({unit})</th>
            <th scope="col">Days apart</th>
            <th scope="col">Observed pairs</th>
            <th scope="col">Expected</th>
            <th scope="col">Ratio</th>
            <th scope="col">p</th>
            <th scope="col">
              <span className="visually-hidden">Pairs</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {result.cells.map((c) => (
            <tr
              key={`${c.space.join()}-${c.time.join()}`}
              className={c.significant ? styles.significant : undefined}
              data-significant={c.significant}
            >
              <td>
                {c.space[0]}–{c.space[1]}
              </td>
              <td>
                {c.time[0]}–{c.time[1]}
              </td>
              <td>{c.observed}</td>
              <td>{c.expected.toFixed(1)}</td>
              <td>
                {c.ratio === null ? '—' : `${c.ratio.toFixed(2)}×`}
                {c.significant ? <span className={styles.mark}> ✱ significant</span> : null}
              </td>
              <td>{c.p.toFixed(3)}</td>
              <td>
                {c.significant && c.pairs?.length ? (
                  <button
                    type="button"
                    onClick={() => onPairs?.(c)}
                    aria-label={`Show pairs ${c.space[0]}–${c.space[1]} ${unit}, ${c.time[0]}–${c.time[1]} days`}
                  >
                    Show pairs
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
