/**
 * Time of day, local to each incident: a start hour and an end hour (exclusive). An end before the
 * start wraps past midnight (22:00 to 06:00 is the night).
 */
import { useId } from 'react';
import type { Filters } from '../../src-shared/filters';
import { hourLabel, hoursPatch, hoursText } from './filterModel';
import styles from './filters.module.css';

const STARTS = Array.from({ length: 24 }, (_, h) => h);
const ENDS = Array.from({ length: 24 }, (_, h) => h + 1);

export type HoursControlProps = { filters: Filters; update: (patch: Partial<Filters>) => void };

export function HoursControl({ filters, update }: HoursControlProps) {
  const id = useId();
  const start = filters.hours?.[0] ?? null;
  const end = filters.hours?.[1] ?? null;
  const summary = hoursText(filters.hours);
  return (
    <div className={styles.hoursControl} role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className={styles.filterLabel}>
        Hours
      </span>
      <select
        aria-label="From hour"
        value={start === null ? '' : String(start)}
        onChange={(e) => update(hoursPatch(e.target.value === '' ? null : Number(e.target.value), end ?? 24))}
      >
        <option value="">Any time</option>
        {STARTS.map((h) => (
          <option key={h} value={h}>
            {hourLabel(h)}
          </option>
        ))}
      </select>
      <span aria-hidden="true">to</span>
      <select
        aria-label="To hour"
        value={end === null ? '24' : String(end)}
        disabled={start === null}
        onChange={(e) => update(hoursPatch(start, Number(e.target.value)))}
      >
        {ENDS.map((h) => (
          <option key={h} value={h}>
            {h === 24 ? '24:00' : hourLabel(h)}
          </option>
        ))}
      </select>
      {summary?.endsWith('overnight') ? <span className="muted">overnight</span> : null}
    </div>
  );
}
