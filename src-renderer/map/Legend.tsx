/**
 * The legend: each type's colour and how many incidents match the filters (and how many are in
 * view). A row is a toggle button that hides or shows its type on every view (the shared filter).
 */
import { useState } from 'react';
import type { LegendEntry } from './palette';
import styles from './map.module.css';

export type LegendProps = {
  entries: LegendEntry[];
  inView: Record<string, number> | null;
  shown: (type: string) => boolean;
  onToggle: (type: string) => void;
  total: number | null;
};

const NUMBER = new Intl.NumberFormat('en-US');
const fmt = (n: number) => NUMBER.format(n);

export function Legend({ entries, inView, shown, onToggle, total }: LegendProps) {
  const [open, setOpen] = useState(true);
  return (
    <section className={styles.mapLegend} aria-label="Legend" data-testid="map-legend">
      <header>
        <strong>{total === null ? 'Counting…' : `${fmt(total)} incidents`}</strong>
        <button
          type="button"
          className={styles.legendFold}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          title={open ? 'Fold the legend' : 'Show the legend'}
        >
          {open ? 'in view ▴' : 'legend ▾'}
        </button>
      </header>
      <ul hidden={!open}>
        {entries.map((e) => {
          const on = shown(e.type);
          return (
            <li key={e.type}>
              <button
                type="button"
                className={styles.legendRow}
                aria-pressed={on}
                title={on ? `Hide ${e.type} on every view` : `Show ${e.type} again`}
                onClick={() => onToggle(e.type)}
              >
                <span
                  className={styles.legendSwatch}
                  style={{ background: on ? e.colour : 'transparent', borderColor: e.colour }}
                  aria-hidden="true"
                />
                <span className={styles.legendType}>{e.type}</span>
                <span className={styles.legendCount} data-type={e.type}>
                  {on ? fmt(e.count) : '—'}
                </span>
                <span className={`${styles.legendView} muted`}>
                  {on && inView ? fmt(inView[e.type] ?? 0) : ''}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
