/** Live search: parameter bounds, defaults and the 400 bodies that name the bad parameter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../types';
import { LOOP, get, searchCrimes, start } from './harness';

let sim: Simulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const base = { key: 'ent-key', lat: LOOP.lat, lon: LOOP.lon, radius: 0.01 };

async function expect400(params: Record<string, string | number>, name: string): Promise<void> {
  const res = await get(sim, '/crimes.json', params);
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = res.json() as { errors: string[] };
  expect(Object.keys(body)).toEqual(['errors']);
  expect(body.errors.length).toBeGreaterThan(0);
  expect(body.errors.some((m) => m.startsWith(`${name} `))).toBe(true);
}

describe('required parameters', () => {
  it.each(['lat', 'lon', 'radius'])('a missing %s is a 400 naming it', async (name) => {
    const params: Record<string, string | number> = { ...base };
    delete params[name];
    await expect400(params, name);
  });

  it('names every bad parameter at once', async () => {
    const res = await get(sim, '/crimes.json', { key: 'ent-key', lat: 'north', radius: -1 });
    const errors = (res.json() as { errors: string[] }).errors;
    expect(errors.map((m) => m.split(' ')[0]).sort()).toEqual(['lat', 'lon', 'radius']);
  });
});

describe('bounds', () => {
  it.each([
    ['lat', 90.5],
    ['lat', -91],
    ['lat', '1e1'],
    ['lon', 180.01],
    ['lon', 'NaN'],
    ['radius', 0],
    ['radius', -0.01],
    ['radius', 1.5],
    ['max_records', 0],
    ['max_records', 501],
    ['max_records', 2.5],
    ['max_records', 'ten'],
    ['sort_by', 'time'],
    ['sort_order', 'up'],
    ['since', '2025-02-30'],
    ['since', '11/01/2025'],
    ['types', 'Theft,Jaywalking'],
    ['types', ''],
  ])('%s=%s is a 400 naming %s', async (name, value) => {
    await expect400({ ...base, [name]: value }, name);
  });

  it('accepts the extremes: lat ±90, lon ±180, radius 1, max_records 1 and 500', async () => {
    const extremes: Record<string, number>[] = [
      { lat: 90, lon: 180 },
      { lat: -90, lon: -180 },
      { radius: 1, max_records: 1 },
      { max_records: 500 },
    ];
    for (const p of extremes) {
      expect((await get(sim, '/crimes.json', { ...base, ...p })).status).toBe(200);
    }
  });
});

describe('defaults', () => {
  it('max_records defaults to 50 and caps at 500', async () => {
    expect(await searchCrimes(sim, base)).toHaveLength(50);
    expect(await searchCrimes(sim, { ...base, max_records: 500 })).toHaveLength(500);
    expect(await searchCrimes(sim, { ...base, max_records: 7 })).toHaveLength(7);
  });

  it('sort defaults to date DESC', async () => {
    const byDefault = await searchCrimes(sim, { ...base, max_records: 200 });
    const explicit = await searchCrimes(sim, {
      ...base,
      max_records: 200,
      sort_by: 'date',
      sort_order: 'DESC',
    });
    expect(byDefault.map((c) => c.cdid)).toEqual(explicit.map((c) => c.cdid));
  });

  it('sort_by and sort_order are case-insensitive', async () => {
    const a = await searchCrimes(sim, { ...base, sort_by: 'Distance', sort_order: 'asc' });
    const b = await searchCrimes(sim, { ...base, sort_by: 'distance', sort_order: 'ASC' });
    expect(a.map((c) => c.cdid)).toEqual(b.map((c) => c.cdid));
  });
});
