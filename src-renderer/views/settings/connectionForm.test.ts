import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsPatch, viewOf } from '../../../src-shared/settings';
import {
  checkForm,
  fieldErrorsOf,
  formOf,
  patchOf,
  previewLimits,
  type ConnectionForm,
} from './connectionForm';

const enterprise: ConnectionForm = {
  baseUrl: ' https://api.example.com/ ',
  plan: 'enterprise',
  ratePerMinute: '1200',
  windowDays: '730',
};

describe('connection form', () => {
  it('starts from the saved settings, empty strings for unset values', () => {
    expect(formOf(viewOf(DEFAULT_SETTINGS))).toEqual({
      baseUrl: '',
      plan: 'developer',
      ratePerMinute: '',
      windowDays: '',
    });
    const saved = viewOf({
      baseUrl: 'https://a.example',
      plan: 'enterprise',
      ratePerMinute: 9,
      windowDays: 30,
    });
    expect(formOf(saved)).toEqual({
      baseUrl: 'https://a.example',
      plan: 'enterprise',
      ratePerMinute: '9',
      windowDays: '30',
    });
  });

  it('turns an empty base URL into null and leaves Enterprise numbers out for other plans', () => {
    const patch = patchOf({ baseUrl: '  ', plan: 'pro-annual', ratePerMinute: '5', windowDays: '5' });
    expect(patch).toEqual({ baseUrl: null, plan: 'pro-annual' });
    expect(SettingsPatch.safeParse(patch).success).toBe(true);
  });

  it('sends Enterprise’s own numbers, null where left empty', () => {
    expect(patchOf(enterprise)).toEqual({
      baseUrl: 'https://api.example.com/',
      plan: 'enterprise',
      ratePerMinute: 1200,
      windowDays: 730,
    });
    expect(patchOf({ ...enterprise, windowDays: '' })).toMatchObject({ windowDays: null });
  });

  it('checks Enterprise’s numbers in plain words', () => {
    expect(checkForm(enterprise)).toEqual({});
    expect(checkForm({ ...enterprise, ratePerMinute: '' })).toEqual({});
    expect(checkForm({ ...enterprise, ratePerMinute: '12.5' }).ratePerMinute).toBe(
      'The rate must be a whole number from 1 to 100,000.',
    );
    expect(checkForm({ ...enterprise, windowDays: '0' }).windowDays).toMatch(/from 1 to 3,650/);
    expect(checkForm({ ...enterprise, plan: 'developer', ratePerMinute: 'abc' })).toEqual({});
  });

  it('previews the limits in force as the user types', () => {
    expect(previewLimits({ ...enterprise, plan: 'developer' })).toMatchObject({
      ratePerMinute: 60,
      windowDays: 90,
    });
    expect(previewLimits({ ...enterprise, plan: 'pro-annual' })).toMatchObject({ windowDays: 182 });
    expect(previewLimits(enterprise)).toMatchObject({ ratePerMinute: 1200, windowDays: 730 });
    expect(previewLimits({ ...enterprise, ratePerMinute: 'x' })).toMatchObject({ ratePerMinute: 300 });
  });

  it('sorts the engine’s issues into fields', () => {
    expect(
      fieldErrorsOf([
        { path: 'baseUrl', message: 'Enter a full URL' },
        { path: 'baseUrl', message: 'second' },
        { path: 'input for updateSettings', message: 'Unrecognized key' },
      ]),
    ).toEqual({ fields: { baseUrl: 'Enter a full URL' }, other: ['Unrecognized key'] });
  });
});
