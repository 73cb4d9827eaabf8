import { afterEach, describe, expect, it } from 'vitest';
import { redact, registerSecret, unregisterSecret } from './redact';

describe('redact', () => {
  afterEach(() => {
    unregisterSecret('s3cr3t-KEY/+=');
    unregisterSecret('abc');
  });

  it('removes key= query values, whatever the parameter order', () => {
    expect(redact('GET https://h/crimes.json?lat=1&key=abcd1234&lon=2')).toBe(
      'GET https://h/crimes.json?lat=1&key=REDACTED&lon=2',
    );
    expect(redact('https://h/crimes/5.json?key=abcd1234')).toBe('https://h/crimes/5.json?key=REDACTED');
    expect(redact('https://h/x?api_key=zz99&KEY=yy88')).toBe('https://h/x?api_key=REDACTED&KEY=REDACTED');
    expect(redact('monkey=banana')).toBe('monkey=banana');
  });

  it('removes Bearer tokens and JSON key fields', () => {
    expect(redact('Authorization: Bearer eyJhbGciOi.J9x-_~+/=')).toBe('Authorization: Bearer REDACTED');
    expect(redact('{"key":"abc\\"def","plan":"pro"}')).toBe('{"key":"REDACTED","plan":"pro"}');
    expect(redact('{"apiKey": "xyz"}')).toBe('{"apiKey": "REDACTED"}');
  });

  it('removes registered secrets anywhere, plain, URL-encoded and JSON-escaped', () => {
    registerSecret('s3cr3t-KEY/+=');
    expect(redact('the key s3cr3t-KEY/+= leaked')).toBe('the key REDACTED leaked');
    expect(redact(`x=${encodeURIComponent('s3cr3t-KEY/+=')}`)).toBe('x=REDACTED');
    unregisterSecret('s3cr3t-KEY/+=');
    expect(redact('s3cr3t-KEY/+=')).toBe('s3cr3t-KEY/+=');
  });

  it('ignores values too short to be a key', () => {
    registerSecret('abc');
    expect(redact('abcdef')).toBe('abcdef');
  });
});
