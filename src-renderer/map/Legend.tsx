/**
 * The legend: each type's colour, how many incidents match the filters and how many of them are in
 * the current view, under labelled columns. A row is a toggle button that hides or shows its type on
 * every view (the shared filter). The "In view" column follows the map whichever layers are on;
 * while time playback is open it counts the playback period's incidents in the view instead.
 * On a small map it starts folded, so it never covers the map. With the heat layer on, the heat
 * ramp and what it measures sit under the types.
 */
import { useState } from 'react';
import { HeatLegend } from './HeatLegend';
import type { LegendEntry } from './palette';
import styles from './map.module.css';

export type LegendProps = {
  entries: LegendEntry[];
  inView: Record<string, number> | null;
  /** Whose incidents "In view" counts: the map's layers, or the open playback's period. */
  inViewOf?: 'map' | 'period';
  shown: (type: string) => boolean;
  onToggle: (type: string) => void;
  total: number | null;
  /** Whether it starts open (folded on small maps). */
  initiallyOpen?: boolean;
  /** The heat layer is on: say what its colours mean. */
  heat?: boolean;
};

const NUMBER = new Intl.NumberFormat('en-US');
const fmt = (n: number) => NUMBER.format(n);

export function Legend({
  entries,
  inView,
  inViewOf = 'map',
  shown,
  onToggle,
  total,
  initiallyOpen = true,
  heat = false,
}: LegendProps) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <section
      className={styles.mapLegend}
      aria-label="Legend"
      data-testid="map-legend"
      data-open={open}
      data-in-view-of={inViewOf}
    >
      <header>
        <strong>{total === null ? 'Counting…' : `${fmt(total)} incidents`}</strong>
        <button
          type="button"
          className={styles.legendFold}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          title={open ? 'Fold the legend' : 'Show the legend'}
        >
          {open ? 'Fold ▴' : 'Legend ▾'}
        </button>
      </header>
      <div className={styles.legendColumns} hidden={!open} aria-hidden="true">
        <span />
        <span>Type</span>
        <span title="Incidents that match the filters">Matching</span>
        <span
          title={
            inViewOf === 'period'
              ? "Of those, how many of the playback period's are in the map's current view"
              : "Of those, how many are in the map's current view"
          }
        >
          In view
        </span>
      </div>
      <ul hidden={!open}>
        {entries.map((e) => {
          const on = shown(e.type);
          const viewCount = on && inView ? fmt(inView[e.type] ?? 0) : '';
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
                <span className="visually-hidden">{on ? ' matching,' : ''}</span>
                <span className={`${styles.legendView} muted`} data-in-view={e.type}>
                  {viewCount}
                </span>
                <span className="visually-hidden">{viewCount ? ' in view' : ''}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {heat && open ? <HeatLegend /> : null}
    </section>
  );
}
