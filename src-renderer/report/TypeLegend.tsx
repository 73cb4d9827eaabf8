/**
 * The map's type legend: each type on the map with its symbol (the map's colour and size) and its
 * count, most first; the counts add up to the bulletin's total.
 */
import type { ReportModel } from '../../src-shared/exports';
import { colourOf } from '../map/palette';
import { count } from '../text/count';
import { SYMBOL_RADIUS } from './StaticMap';
import styles from './report.module.css';

export function TypeLegend({ byType }: { byType: ReportModel['byType'] }) {
  if (byType.length === 0) return null;
  const size = SYMBOL_RADIUS * 2 + 2;
  return (
    <ul className={styles.legend} data-testid="report-legend" aria-label="Types on the map">
      {byType.map((t) => (
        <li key={t.type}>
          <svg width={size} height={size} aria-hidden="true">
            <circle
              cx={size / 2}
              cy={size / 2}
              r={SYMBOL_RADIUS}
              fill={colourOf(t.type)}
              stroke="#ffffff"
              strokeWidth="1"
            />
          </svg>
          {t.type} <span className={styles.legendCount}>{count(t.count)}</span>
        </li>
      ))}
    </ul>
  );
}
