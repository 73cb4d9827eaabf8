import { describe, expect, it } from 'vitest';
import { filterWords } from './filterWords';
import { MONDAY_FIRST, mondayFirst, WEEKDAY_NAMES } from './weekdays';

describe('weekdays, Monday first', () => {
  it('orders the stored numbers (0 = Sunday) Monday to Sunday', () => {
    expect([0, 6, 3, 1].sort(mondayFirst)).toEqual([1, 3, 6, 0]);
    expect([0, 1, 2, 3, 4, 5, 6].sort(mondayFirst)).toEqual(MONDAY_FIRST);
    expect(MONDAY_FIRST.map((d) => WEEKDAY_NAMES[d])).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
  });
});

describe('the filters in words', () => {
  it('name the chosen weekdays Monday first', () => {
    expect(filterWords({ weekdays: [0, 6, 1] })).toContain('Weekdays: Monday, Saturday, Sunday');
  });
});
