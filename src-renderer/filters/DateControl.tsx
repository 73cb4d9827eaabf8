/** Date range: presets (7, 30, 90 days, all history) or a custom from/to of local days. */
import { useId, useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { CountResult } from '../../src-shared/incidentQueries';
import { PRESETS, presetPatch, rangePatch } from './filterModel';
import { rangeText } from './rangeText';
import styles from './filters.module.css';

export type DateControlProps = {
  filters: Filters;
  range: CountResult['range'] | null;
  update: (patch: Partial<Filters>) => void;
};

export function DateControl({ filters, range, update }: DateControlProps) {
  const id = useId();
  const custom = !filters.preset;
  const [open, setOpen] = useState(custom);
  const showCustom = open || custom;
  return (
    <div className={styles.dateControl}>
      <div className="segmented" role="group" aria-label="Date range">
        {PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            aria-pressed={filters.preset === preset.id}
            onClick={() => {
              setOpen(false);
              update(presetPatch(preset.id));
            }}
          >
            {preset.label}
          </button>
        ))}
        <button type="button" aria-pressed={showCustom} onClick={() => setOpen(true)}>
          Custom…
        </button>
      </div>
      {showCustom ? (
        <span className={styles.dateCustom}>
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            value={filters.from ?? range?.from ?? ''}
            onChange={(e) => update(rangePatch(e.target.value, filters.to ?? range?.to ?? ''))}
          />
          <label htmlFor={`${id}-to`}>to</label>
          <input
            id={`${id}-to`}
            type="date"
            value={filters.to ?? range?.to ?? ''}
            onChange={(e) => update(rangePatch(filters.from ?? range?.from ?? '', e.target.value))}
          />
        </span>
      ) : filters.preset !== 'all' ? (
        <span className={`${styles.dateRange} muted`} data-testid="date-range">
          {rangeText(range)}
        </span>
      ) : null}
    </div>
  );
}
