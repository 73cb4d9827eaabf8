import { describe, expect, it } from 'vitest';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import { typePickerText, typeSections } from './typeOptions';

describe('the type picker’s sections', () => {
  const byType = { Theft: 40, Assault: 12, Other: 7, 'Drone sighting': 3, Fraud: 9, 'Car prowl': 9 };

  it('lists the standard types first, most frequent first, then the archive’s others under More types', () => {
    const { standard, more } = typeSections(CRIME_TYPES, byType, []);
    expect(standard.map((o) => o.type).slice(0, 3)).toEqual(['Theft', 'Assault', 'Other']);
    expect(standard).toHaveLength(CRIME_TYPES.length);
    expect(standard.at(-1)).toEqual({ type: 'Vandalism', count: 0, chosen: false });
    // Ties by name; "Other" stays the API's own type, the archive's categories are not merged into it.
    expect(more.map((o) => [o.type, o.count])).toEqual([
      ['Car prowl', 9],
      ['Fraud', 9],
      ['Drone sighting', 3],
    ]);
  });

  it('narrows both sections by a search, case-insensitively, and keeps chosen types listed', () => {
    const { standard, more } = typeSections(CRIME_TYPES, byType, ['Graffiti', 'Theft'], 'ft');
    expect(standard).toEqual([{ type: 'Theft', count: 40, chosen: true }]);
    expect(more).toEqual([]);
    expect(typeSections(CRIME_TYPES, byType, ['Graffiti'], 'GRAF').more).toEqual([
      { type: 'Graffiti', count: 0, chosen: true },
    ]);
  });

  it('words the picker button by what is chosen', () => {
    expect(typePickerText([])).toBe('all');
    expect(typePickerText(['Fraud'])).toBe('1 chosen');
    expect(typePickerText(['Fraud', 'Theft', 'Arson'])).toBe('3 chosen');
  });
});
