import { describe, expect, it } from 'vitest';
import { BridgeCallError } from '../bridge/client';
import { errorText } from './errorText';

describe('errorText', () => {
  it('uses the engine’s own message', () => {
    const error = new BridgeCallError('setApiKey', {
      code: 'keychain_unavailable',
      message: 'No Secret Service is running.',
    });
    expect(errorText(error)).toBe('No Secret Service is running.');
  });

  it('falls back to plain words per code when the message is empty', () => {
    expect(errorText(new BridgeCallError('getSettings', { code: 'unauthorized', message: '' }))).toMatch(
      /rejected the API key/,
    );
  });

  it('sums up field problems instead of repeating the developer-facing list', () => {
    const error = new BridgeCallError('updateSettings', {
      code: 'bad_input',
      message: 'Invalid input for updateSettings: baseUrl: Enter a full URL',
      issues: [{ path: 'baseUrl', message: 'Enter a full URL' }],
    });
    expect(errorText(error)).toBe('Some of the values need attention.');
  });

  it('never shows a raw exception', () => {
    expect(errorText(new TypeError('x is undefined'))).toBe('Blotter hit an unexpected problem.');
  });
});
