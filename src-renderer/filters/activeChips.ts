/**
 * The filters behind "More filters", as chips the folded bar still shows: each chosen type, each
 * chosen weekday, the time of day and the date range (unless it is all history), each with the
 * patch that removes it. Folding hides controls, never what filters the data. Pure.
 */
import { PRESET_DAYS, type Filters } from '../../src-shared/filters';
import { hoursText, presetPatch, toggleType, toggleWeekday } from './filterModel';

export type ActiveChip = {
  key: string;
  /** What the chip says: "Burglary", "Sundays", "Last 90 days", "22:00–06:00, overnight". */
  label: string;
  /** The remove button's accessible name. */
  removeLabel: string;
  remove: Partial<Filters>;
};

const WEEKDAY_PLURALS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];

function dateLabel(filters: Filters, dayText: (day: string) => string): string | null {
  if (filters.preset === 'all') return null;
  if (filters.preset) return `Last ${PRESET_DAYS[filters.preset]} days`;
  if (filters.from && filters.to) return `${dayText(filters.from)} – ${dayText(filters.to)}`;
  if (filters.from) return `Since ${dayText(filters.from)}`;
  if (filters.to) return `Until ${dayText(filters.to)}`;
  return null;
}

export function activeChips(filters: Filters, dayText: (day: string) => string = (d) => d): ActiveChip[] {
  const chips: ActiveChip[] = [];
  const dates = dateLabel(filters, dayText);
  if (dates)
    chips.push({
      key: 'dates',
      label: dates,
      removeLabel: `Remove the date filter ${dates} (all history)`,
      remove: presetPatch('all'),
    });
  const hours = hoursText(filters.hours);
  if (hours)
    chips.push({
      key: 'hours',
      label: hours,
      removeLabel: `Remove the time of day ${hours}`,
      remove: { hours: undefined },
    });
  for (const day of [...(filters.weekdays ?? [])].sort((a, b) => a - b)) {
    const name = WEEKDAY_PLURALS[day] ?? `day ${day}`;
    chips.push({
      key: `weekday-${day}`,
      label: name,
      removeLabel: `Remove the weekday ${name}`,
      remove: toggleWeekday(filters, day),
    });
  }
  for (const type of filters.types ?? []) {
    chips.push({
      key: `type-${type}`,
      label: type,
      removeLabel: `Remove the type ${type}`,
      remove: toggleType(filters, type),
    });
  }
  // An analysis cell or place opened from Analysis: it narrows the area, named for what it is.
  if (filters.focus)
    chips.push({
      key: 'focus',
      label: filters.focus.label,
      removeLabel: `Remove the filter ${filters.focus.label}`,
      remove: { focus: undefined },
    });
  return chips;
}
