/** Day, week or month buckets for the trend: a small radio group. */
import { useId } from 'react';
import type { Interval } from '../../src-shared/incidentQueries';
import styles from './history.module.css';

const CHOICES: { value: Interval; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

export function IntervalSwitch({ value, onChange }: { value: Interval; onChange: (v: Interval) => void }) {
  const name = useId();
  return (
    <fieldset className={styles.intervalSwitch}>
      <legend className="visually-hidden">Count incidents per</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className={c.value === value ? styles.intervalOn : undefined}>
          <input
            type="radio"
            name={name}
            value={c.value}
            checked={c.value === value}
            onChange={() => onChange(c.value)}
          />
          {c.label}
        </label>
      ))}
    </fieldset>
  );
}
