import { describe, expect, it } from 'vitest';
import { analysisFieldErrors, type AnalysisFields } from './analysisForm';

const fields: AnalysisFields = {
  cellSize: '',
  band: '',
  radius: '',
  spaceBands: '0,400,800',
  timeBands: '0,7,14',
  distance: '0',
};

describe('the Analysis form’s own checks', () => {
  it('accepts the defaults of every analysis', () => {
    for (const kind of [
      'analyzeHotSpots',
      'analyzeKde',
      'analyzeNearRepeat',
      'analyzeRepeatLocations',
      'analyzeCompStat',
    ] as const)
      expect(analysisFieldErrors(kind, fields)).toEqual({});
  });

  it('names each bad field in words instead of dropping it for the default', () => {
    expect(analysisFieldErrors('analyzeHotSpots', { ...fields, cellSize: '-5', band: 'abc' })).toEqual({
      cellSize: expect.stringMatching(/^Cell size: a number of metres above 0/),
      band: expect.stringMatching(/^Distance band: /),
    });
    expect(analysisFieldErrors('analyzeKde', { ...fields, radius: '0' })).toEqual({
      radius: expect.stringMatching(/^Search radius: /),
    });
    expect(
      analysisFieldErrors('analyzeNearRepeat', { ...fields, spaceBands: '0,800,400', timeBands: '7' }),
    ).toEqual({
      spaceBands: expect.stringMatching(/each larger than the last/),
      timeBands: expect.stringMatching(/^Day bands: two or more numbers/),
    });
    expect(analysisFieldErrors('analyzeRepeatLocations', { ...fields, distance: '-1' })).toEqual({
      distance: expect.stringMatching(/^Group within: /),
    });
  });
});
