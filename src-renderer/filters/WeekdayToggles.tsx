/** Weekday toggles, local to each incident (0 = Sunday); none pressed means every day. */
import type { Filters } from '../../src-shared/filters';
import { toggleWeekday } from './filterModel';

export const WEEKDAYS = [
  { day: 0, short: 'Sun', name: 'Sunday' },
  { day: 1, short: 'Mon', name: 'Monday' },
  { day: 2, short: 'Tue', name: 'Tuesday' },
  { day: 3, short: 'Wed', name: 'Wednesday' },
  { day: 4, short: 'Thu', name: 'Thursday' },
  { day: 5, short: 'Fri', name: 'Friday' },
  { day: 6, short: 'Sat', name: 'Saturday' },
];

export type WeekdayTogglesProps = { filters: Filters; update: (patch: Partial<Filters>) => void };

export function WeekdayToggles({ filters, update }: WeekdayTogglesProps) {
  const chosen = filters.weekdays ?? [];
  return (
    <div className="segmented weekdays" role="group" aria-label="Weekdays">
      {WEEKDAYS.map(({ day, short, name }) => (
        <button
          key={day}
          type="button"
          aria-pressed={chosen.includes(day)}
          aria-label={name}
          title={name}
          onClick={() => update(toggleWeekday(filters, day))}
        >
          {short}
        </button>
      ))}
    </div>
  );
}
