/**
 * A significant Knox cell's pairs (issue 26, item 5): both incidents (type, block address, local
 * date and time), how far apart and how many days, and a CSV of them to download. The engine lists
 * the first 1,000 of a cell; the caption says when there are more.
 */
import type { KnoxCellOut } from '../../src-shared/analysis';
import { instantText } from '../../src-shared/localTime';
import { knoxCellText, knoxPairsCsv, knoxPairsFile } from './knoxPairsCsv';
import styles from './analysis.module.css';

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function KnoxPairs({ cell, unit, onClose }: { cell: KnoxCellOut; unit: string; onClose: () => void }) {
  const pairs = cell.pairs ?? [];
  const words = knoxCellText(cell, unit);
  return (
    <section className={styles.pairs} aria-label={`Pairs of ${words}`} data-testid="knox-pairs">
      <header className={styles.pairsHead}>
        <strong>
          Pairs {words}:{' '}
          {pairs.length < cell.observed ? `the first ${pairs.length} of ${cell.observed}` : pairs.length}
        </strong>
        <button type="button" onClick={() => download(knoxPairsFile(cell, unit), knoxPairsCsv(pairs, unit))}>
          Download CSV
        </button>
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className={styles.pairsScroll}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">First incident</th>
              <th scope="col">Second incident</th>
              <th scope="col">Distance ({unit})</th>
              <th scope="col">Days apart</th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((p) => (
              <tr key={`${p.a.cdid}-${p.b.cdid}`}>
                {[p.a, p.b].map((i) => (
                  <td key={i.cdid}>
                    {i.type} · {i.address}
                    <br />
                    <span className="muted small">{instantText(i.utc, i.zone)}</span>
                  </td>
                ))}
                <td>{p.distance.toLocaleString('en-US')}</td>
                <td>{p.days}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
