import { describe, expect, it } from 'vitest';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import { colourOf, legendEntries, TYPE_COLOURS, UNKNOWN_COLOUR } from './palette';

describe('type colours and the legend', () => {
  it('gives every standard type its own colour and unknown types a neutral grey', () => {
    const colours = CRIME_TYPES.map(colourOf);
    expect(new Set(colours).size).toBe(CRIME_TYPES.length);
    expect(colours).not.toContain(UNKNOWN_COLOUR);
    expect(colourOf('Fraud')).toBe(UNKNOWN_COLOUR);
    expect(Object.keys(TYPE_COLOURS)).toEqual([...CRIME_TYPES]);
  });

  it('lists standard types in a fixed order, then other types by count', () => {
    const rows = legendEntries({ Theft: 10, Fraud: 2, Zeta: 5, Arson: 0 });
    expect(rows.slice(0, 9).map((r) => r.type)).toEqual([...CRIME_TYPES]);
    expect(rows.slice(9)).toEqual([
      { type: 'Zeta', colour: UNKNOWN_COLOUR, count: 5, known: false },
      { type: 'Fraud', colour: UNKNOWN_COLOUR, count: 2, known: false },
    ]);
    expect(legendEntries({ Theft: 10, Arson: 0 }, false).map((r) => r.type)).toEqual(['Theft']);
  });
});
