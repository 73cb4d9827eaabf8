/**
 * The filter bar above Map, Table, History and Export: the total, free text, area, the types (one
 * compact picker with counts and search, TypePicker.tsx), removed incidents, dates, time of day,
 * weekdays, and Clear all. Every control applies at once except the text box (debounced). The
 * total follows every change. Two rows at most, however many categories the archive holds: the
 * first row's controls, then dates, times of day and weekdays; "Fewer filters" folds it to its first
 * row, which short windows start with, so the map keeps its room. The filters on show as chips that
 * remove them (activeChips.ts): the chosen types always, the rest while folded.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { isShortWindow } from '../shell/shortWindow';
import { count } from '../text/count';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { activeChips } from './activeChips';
import { AreaPicker } from './AreaPicker';
import { FeatureChip } from '../layers/FeatureChip';
import { DateControl } from './DateControl';
import { isDefault } from './filterModel';
import { useFilters } from './FiltersContext';
import { HoursControl } from './HoursControl';
import { dayText } from './rangeText';
import { TextSearch } from './TextSearch';
import { TypePicker } from './TypePicker';
import { useCounts } from './useCounts';
import { WeekdayToggles } from './WeekdayToggles';
import styles from './filters.module.css';

export function FilterBar() {
  const { filters, update, reset } = useFilters();
  const { areas } = useWorkspace();
  const counts = useCounts();
  const total = counts.total === null ? '…' : count(counts.total);
  const [folded, setFolded] = useState(isShortWindow);
  const moreId = useId();
  const chips = activeChips(filters, (day) => dayText(day)).filter(
    // Types and an analysis focus show always (the picker hides its choices; a focus has no control).
    (chip) => folded || chip.kind === 'type' || chip.kind === 'focus',
  );
  const chipList = useRef<HTMLUListElement>(null);
  const foldButton = useRef<HTMLButtonElement>(null);
  // A removed chip takes its button with it: focus goes to the chip now in its place, else the toggle.
  const focusAfterRemove = useRef<number | null>(null);
  useEffect(() => {
    const index = focusAfterRemove.current;
    if (index === null) return;
    focusAfterRemove.current = null;
    const buttons = chipList.current?.querySelectorAll('button');
    const next = buttons && buttons.length > 0 ? buttons[Math.min(index, buttons.length - 1)] : null;
    (next ?? foldButton.current)?.focus();
  });
  return (
    <section className={styles.filterBar} aria-label="Filters" data-folded={folded}>
      <div className={styles.filterRow}>
        <output
          className={styles.filterTotal}
          data-testid="filtered-count"
          data-loading={counts.loading ? 'true' : 'false'}
          aria-live="polite"
        >
          <strong>{total}</strong> {counts.total === 1 ? 'incident' : 'incidents'}
        </output>
        {filters.cdids ? (
          <span className={styles.filterIncidents} role="status" data-testid="filter-incidents">
            Only the {filters.cdids.length} {filters.cdids.length === 1 ? 'incident' : 'incidents'} of an
            alert{' '}
            <button type="button" className="link-button" onClick={() => update({ cdids: undefined })}>
              Show all
            </button>
          </span>
        ) : null}
        <TextSearch text={filters.text} update={update} />
        <AreaPicker area={filters.area} areas={areas} update={update} />
        {filters.feature ? <FeatureChip feature={filters.feature} update={update} /> : null}
        <TypePicker filters={filters} byType={counts.byType} update={update} />
        <label className={`check ${styles.filterRemoved}`}>
          <input
            type="checkbox"
            checked={filters.includeRemoved === true}
            onChange={(e) => update({ includeRemoved: e.target.checked ? true : undefined })}
          />
          Include removed
        </label>
        {chips.length > 0 ? (
          <ul
            className={styles.activeChips}
            aria-label="Filters on"
            data-testid="active-filters"
            ref={chipList}
          >
            {chips.map((chip, index) => (
              <li key={chip.key} className={styles.activeChip}>
                <span className={styles.activeChipLabel} title={chip.label}>
                  {chip.label}
                </span>
                <button
                  type="button"
                  className={styles.activeChipRemove}
                  aria-label={chip.removeLabel}
                  title={chip.removeLabel}
                  onClick={() => {
                    focusAfterRemove.current = index;
                    update(chip.remove);
                  }}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <button
          type="button"
          className={`link-button ${styles.filterClear}`}
          onClick={reset}
          disabled={isDefault(filters)}
        >
          Clear all
        </button>
        <button
          type="button"
          ref={foldButton}
          className={`link-button ${styles.filterFold}`}
          aria-expanded={!folded}
          aria-controls={moreId}
          onClick={() => setFolded(!folded)}
        >
          {folded ? 'More filters ▾' : 'Fewer filters ▴'}
        </button>
      </div>
      <div id={moreId} className={styles.filterMore} hidden={folded}>
        <div className={styles.filterRow}>
          <DateControl filters={filters} range={counts.range} update={update} />
          <HoursControl filters={filters} update={update} />
          <WeekdayToggles filters={filters} update={update} />
        </div>
      </div>
      {counts.error ? (
        <p className={styles.filterError} role="alert">
          Counts unavailable: {counts.error}
        </p>
      ) : null}
    </section>
  );
}
