/**
 * The filters on, as chips that remove them: the date range (unless it is all history), the time
 * of day, the chosen weekdays (Monday first) and the chosen types — one chip each up to
 * MAX_WEEKDAY_CHIPS and MAX_TYPE_CHIPS, else one chip for them all, so the bar keeps to its rows. The folded bar shows
 * every chip (folding hides controls, never what filters the data); unfolded, the types' chips
 * (their picker shows only a summary). Pure.
 */
import { PRESET_DAYS, type Filters } from '../../src-shared/filters';
import { mondayFirst } from '../../src-shared/weekdays';
import { hoursText, presetPatch, toggleType, toggleWeekday } from './filterModel';

/** More chosen types than this show as one chip ("3 types"). */
export const MAX_TYPE_CHIPS = 2;
/** More chosen weekdays than this show as one chip ("Mon, Wed, Fri"). */
export const MAX_WEEKDAY_CHIPS = 2;

export type ActiveChip = {
  key: string;
  /**
   * The control the chip stands for; 'focus' has none in the bar (a Gi* cell or a repeat place
   * opened from Analysis), so its chip is the only place it shows.
   */
  kind: 'dates' | 'hours' | 'weekday' | 'type' | 'focus';
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
      kind: 'dates',
      label: dates,
      removeLabel: `Remove the date filter ${dates} (all history)`,
      remove: presetPatch('all'),
    });
  const hours = hoursText(filters.hours);
  if (hours)
    chips.push({
      key: 'hours',
      kind: 'hours',
      label: hours,
      removeLabel: `Remove the time of day ${hours}`,
      remove: { hours: undefined },
    });
  const days = [...(filters.weekdays ?? [])].sort(mondayFirst);
  if (days.length > MAX_WEEKDAY_CHIPS) {
    const names = days.map((d) => WEEKDAY_PLURALS[d]?.slice(0, 3) ?? `day ${d}`).join(', ');
    chips.push({
      key: 'weekdays',
      kind: 'weekday',
      label: names,
      removeLabel: `Remove the weekdays ${names} (every day)`,
      remove: { weekdays: undefined },
    });
  }
  for (const day of days.length > MAX_WEEKDAY_CHIPS ? [] : days) {
    const name = WEEKDAY_PLURALS[day] ?? `day ${day}`;
    chips.push({
      key: `weekday-${day}`,
      kind: 'weekday',
      label: name,
      removeLabel: `Remove the weekday ${name}`,
      remove: toggleWeekday(filters, day),
    });
  }
  const types = filters.types ?? [];
  if (types.length > MAX_TYPE_CHIPS) {
    chips.push({
      key: 'types',
      kind: 'type',
      label: `${types.length} types`,
      removeLabel: `Remove the types ${types.join(', ')} (all types)`,
      remove: { types: undefined },
    });
    return chips;
  }
  for (const type of types) {
    chips.push({
      key: `type-${type}`,
      kind: 'type',
      label: type,
      removeLabel: `Remove the type ${type}`,
      remove: toggleType(filters, type),
    });
  }
  // An analysis cell or place opened from Analysis: it narrows the area, named for what it is.
  if (filters.focus)
    chips.push({
      key: 'focus',
      kind: 'focus',
      label: filters.focus.label,
      removeLabel: `Remove the filter ${filters.focus.label}`,
      remove: { focus: undefined },
    });
  return chips;
}
