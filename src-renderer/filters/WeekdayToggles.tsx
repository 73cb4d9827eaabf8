/**
 * Weekday toggles, local to each incident, Monday first (the stored numbering stays 0 = Sunday);
 * none pressed means every day. Each is named by the label it shows ("Mon"), the full name its
 * tooltip and description.
 */
import type { Filters } from '../../src-shared/filters';
import { MONDAY_FIRST, WEEKDAY_NAMES } from '../../src-shared/weekdays';
import { toggleWeekday } from './filterModel';

export const WEEKDAYS = MONDAY_FIRST.map((day) => {
  const name = WEEKDAY_NAMES[day] as string;
  return { day, short: name.slice(0, 3), name };
});

export type WeekdayTogglesProps = { filters: Filters; update: (patch: Partial<Filters>) => void };

export function WeekdayToggles({ filters, update }: WeekdayTogglesProps) {
  const chosen = filters.weekdays ?? [];
  return (
    <div className="segmented weekdays" role="group" aria-label="Weekdays">
      {WEEKDAYS.map(({ day, short, name }) => (
        <button
          key={day}
          type="button"
          data-day={day}
          aria-pressed={chosen.includes(day)}
          title={name}
          onClick={() => update(toggleWeekday(filters, day))}
        >
          {short}
        </button>
      ))}
    </div>
  );
}
