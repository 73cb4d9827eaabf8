/**
 * The filter bar above Map, Table, History and Export: the total, free text, area, dates, type
 * chips with counts, time of day, weekdays and removed incidents, and Clear all. Every control
 * applies at once except the text box (debounced). The total follows every change.
 */
import { count } from '../text/count';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { AreaPicker } from './AreaPicker';
import { DateControl } from './DateControl';
import { isDefault } from './filterModel';
import { useFilters } from './FiltersContext';
import { HoursControl } from './HoursControl';
import { TextSearch } from './TextSearch';
import { TypeChips } from './TypeChips';
import { useCounts } from './useCounts';
import { WeekdayToggles } from './WeekdayToggles';
import './filters.css';

export function FilterBar() {
  const { filters, update, reset } = useFilters();
  const { areas } = useWorkspace();
  const counts = useCounts();
  const total = counts.total === null ? '…' : count(counts.total);
  return (
    <section className="filter-bar" aria-label="Filters">
      <div className="filter-row">
        <output
          className="filter-total"
          data-testid="filtered-count"
          data-loading={counts.loading ? 'true' : 'false'}
          aria-live="polite"
        >
          <strong>{total}</strong> {counts.total === 1 ? 'incident' : 'incidents'}
        </output>
        <TextSearch text={filters.text} update={update} />
        <AreaPicker area={filters.area} areas={areas} update={update} />
        <label className="check filter-removed">
          <input
            type="checkbox"
            checked={filters.includeRemoved === true}
            onChange={(e) => update({ includeRemoved: e.target.checked ? true : undefined })}
          />
          Include removed
        </label>
        <button
          type="button"
          className="link-button filter-clear"
          onClick={reset}
          disabled={isDefault(filters)}
        >
          Clear all
        </button>
      </div>
      <div className="filter-row">
        <DateControl filters={filters} range={counts.range} update={update} />
        <HoursControl filters={filters} update={update} />
        <WeekdayToggles filters={filters} update={update} />
      </div>
      <div className="filter-row">
        <TypeChips filters={filters} byType={counts.byType} update={update} />
      </div>
      {counts.error ? (
        <p className="filter-error" role="alert">
          Counts unavailable: {counts.error}
        </p>
      ) : null}
    </section>
  );
}
