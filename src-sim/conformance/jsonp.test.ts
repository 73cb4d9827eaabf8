/** JSONP: a plain identifier path wraps the payload; anything else is a 400, so the server is no XSS vector. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../types';
import { LOOP, get, start } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start({ scale: 'tiny' });
});
afterAll(() => sim.close());

const base = { key: 'ent-key', lat: LOOP.lat, lon: LOOP.lon, radius: 0.01, max_records: 5 };

describe('JSONP', () => {
  it.each(['cb', 'jQuery3_1$', 'window.app.on_crimes', '$', '_x.y$1'])(
    'callback=%s wraps the payload',
    async (cb) => {
      const plain = await get(sim, '/crimes.json', base);
      const res = await get(sim, '/crimes.json', { ...base, callback: cb });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.text).toBe(`${cb}(${plain.text});`);
    },
  );

  it.each([
    'alert(1)',
    'cb;alert(1)',
    '<script>',
    'a b',
    '1abc',
    'a..b',
    'a.',
    '.a',
    'a-b',
    'a[0]',
    '',
    'x'.repeat(129),
    'caf\u00e9',
  ])('callback=%j is a 400 naming callback', async (cb) => {
    const res = await get(sim, '/crimes.json', { ...base, callback: cb });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const errors = (res.json() as { errors: string[] }).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^callback /);
    expect(res.text).not.toContain('<script>');
  });

  it('errors are never wrapped', async () => {
    const res = await get(sim, '/crimes.json', { ...base, lat: 100, callback: 'cb' });
    expect(res.status).toBe(400);
    expect(res.text.startsWith('{"errors":')).toBe(true);
  });
});
