/**
 * The hour × weekday grid in the incidents' local time, as a table (a row per weekday, a column per
 * hour) whose cells are shaded by count: readable by screen readers cell by cell, and in print.
 */
import type { CSSProperties } from 'react';
import type { GridResult } from '../../src-shared/incidentQueries';
import { count } from '../text/count';
import styles from './history.module.css';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Monday first, as the weeks of the trend. */
const ORDER = [1, 2, 3, 4, 5, 6, 0];

/** The shade of a cell: 0 (none) to 1 (the busiest cell), on a square-root scale so quiet hours still show. */
export const shade = (n: number, max: number): number =>
  max > 0 && n > 0 ? Math.max(0.08, Math.sqrt(n / max)) : 0;

const hourLabel = (h: number): string => String(h).padStart(2, '0');

export function HourWeekdayGrid({ grid }: { grid: GridResult }) {
  return (
    <div className={styles.hourGridWrap}>
      <table className={styles.hourGrid} data-testid="hour-grid">
        <caption>
          Incidents by local hour of day and weekday ({count(grid.total)} in all; the darkest cell has{' '}
          {count(grid.max)})
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Weekday</span>
            </th>
            {Array.from({ length: 24 }, (_, h) => (
              <th key={h} scope="col" title={`${hourLabel(h)}:00–${hourLabel(h)}:59`}>
                {h % 3 === 0 ? hourLabel(h) : <span className="visually-hidden">{hourLabel(h)}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ORDER.map((d) => (
            <tr key={d}>
              <th scope="row">{DAYS[d]?.slice(0, 3)}</th>
              {(grid.counts[d] ?? []).map((n, h) => (
                <td
                  key={h}
                  style={{ '--shade': shade(n, grid.max) } as CSSProperties}
                  title={`${DAYS[d]} ${hourLabel(h)}:00–${hourLabel(h)}:59: ${count(n)}`}
                >
                  <span className="visually-hidden">{count(n)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className={styles.hourGridScale} aria-hidden="true">
        <span>Fewer</span>
        <span className={styles.hourGridRamp} />
        <span>More incidents</span>
      </p>
    </div>
  );
}
