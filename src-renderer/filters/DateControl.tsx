/**
 * Date range: presets (7, 30, 90 days, all history) or a custom from/to of local days. Exactly one
 * choice looks pressed (Clear all closes Custom…); the custom fields take the place of the range
 * text in a slot of fixed width, so opening them does not reflow the bar; a "to" before the "from"
 * is swapped and the bar says so.
 */
import { useId, useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { CountResult } from '../../src-shared/incidentQueries';
import { PRESETS, presetPatch, rangePatch, rangeSwapped } from './filterModel';
import { rangeText } from './rangeText';
import styles from './filters.module.css';

export type DateControlProps = {
  filters: Filters;
  range: CountResult['range'] | null;
  update: (patch: Partial<Filters>) => void;
};

export const SWAPPED_NOTE = '“To” was before “from”, so the two dates were swapped.';

export function DateControl({ filters, range, update }: DateControlProps) {
  const id = useId();
  const custom = !filters.preset;
  const [open, setOpen] = useState(custom);
  const [swapped, setSwapped] = useState(false);
  // A preset chosen from outside (Clear all) closes the custom fields: one choice looks pressed.
  const [seenPreset, setSeenPreset] = useState(filters.preset);
  if (seenPreset !== filters.preset) {
    setSeenPreset(filters.preset);
    if (filters.preset) {
      setOpen(false);
      setSwapped(false);
    }
  }
  const showCustom = open || custom;
  const setRange = (from: string, to: string) => {
    setSwapped(rangeSwapped(from, to));
    update(rangePatch(from, to));
  };
  return (
    <div className={styles.dateControl}>
      <div className="segmented" role="group" aria-label="Date range">
        {PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            aria-pressed={!showCustom && filters.preset === preset.id}
            onClick={() => {
              setOpen(false);
              setSwapped(false);
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
      <span className={styles.dateSlot}>
        {showCustom ? (
          <span className={styles.dateCustom}>
            <label htmlFor={`${id}-from`} className="visually-hidden">
              From
            </label>
            <input
              id={`${id}-from`}
              type="date"
              value={filters.from ?? range?.from ?? ''}
              onChange={(e) => setRange(e.target.value, filters.to ?? range?.to ?? '')}
            />
            <label htmlFor={`${id}-to`}>to</label>
            <input
              id={`${id}-to`}
              type="date"
              value={filters.to ?? range?.to ?? ''}
              onChange={(e) => setRange(filters.from ?? range?.from ?? '', e.target.value)}
            />
          </span>
        ) : filters.preset !== 'all' ? (
          <span className={`${styles.dateRange} muted`} data-testid="date-range">
            {rangeText(range)}
          </span>
        ) : null}
      </span>
      {swapped && showCustom ? (
        <span className={styles.dateNote} role="status" data-testid="date-swapped">
          {SWAPPED_NOTE}
        </span>
      ) : null}
    </div>
  );
}
