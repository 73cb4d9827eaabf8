import { describe, expect, it } from 'vitest';
import { callNames, secretDestinationOf } from './contract';

describe('calls that let a stored secret go to a new address', () => {
  it('are declared in the contract — the API key to a base URL, the mail password to a mail server — and no others', () => {
    const declared = callNames.filter(
      (name) =>
        secretDestinationOf(name, { baseUrl: 'https://x.example', host: 'x', port: 1, tls: 'tls' }) !==
        undefined,
    );
    expect(declared.sort()).toEqual(['confirmAlertEmailHost', 'confirmBaseUrl']);
  });

  it('name the whole address the secret would go to', () => {
    expect(secretDestinationOf('confirmBaseUrl', { baseUrl: 'https://api.moved.example:8443/v2' })).toEqual({
      secret: 'apiKey',
      address: 'api.moved.example:8443',
    });
    expect(secretDestinationOf('confirmBaseUrl', { baseUrl: 'not a url' })).toEqual({
      secret: 'apiKey',
      address: 'not a url',
      unreadable: true,
    });
    expect(
      secretDestinationOf('confirmAlertEmailHost', { host: '::1', port: 2525, tls: 'starttls' }),
    ).toEqual({
      secret: 'mailPassword',
      address: '[::1]:2525 (STARTTLS)',
    });
  });
});
