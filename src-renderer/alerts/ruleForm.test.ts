import { describe, expect, it } from 'vitest';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import { typeChoices } from './RuleForm';

describe('the rule form’s types', () => {
  it('offers the standard types, then the archive’s own and the rule’s, each once whatever its case', () => {
    expect(typeChoices(['Theft', 'NARCOTICS', 'burglary'], ['Narcotics', 'Gambling'])).toEqual([
      ...CRIME_TYPES,
      'NARCOTICS',
      'Gambling',
    ]);
  });
});
