/** The generator: determinism, plausible rhythms, report lags, the >500 block, DST and the hostile addresses. */
import { describe, expect, it } from 'vitest';
import { SPECIAL_ADDRESSES } from './addresses';
import { CITIES } from './cities';
import { BIG_BLOCK_COUNT } from './fixtures';
import { generate, type Dataset } from './generate';
import { liveIncident } from './serialize';

const NOW = Date.parse('2025-11-20T15:00:00Z');
const HOUR = 3_600_000;
const data = generate({ seed: 1, count: 40_000, now: NOW, spanDays: 400 });
const s = data.store;

function columns(d: Dataset): string {
  const st = d.store;
  const rows: string[] = [];
  for (let r = 0; r < st.size; r += 97) rows.push(JSON.stringify([liveIncident(st, r), st.occurredAt[r]]));
  return rows.join('\n');
}

describe('generate', () => {
  it('the same seed gives the same data; another seed other data', () => {
    const again = generate({ seed: 1, count: 40_000, now: NOW, spanDays: 400 });
    expect(again.store.size).toBe(s.size);
    expect(columns(again)).toBe(columns(data));
    expect(columns(generate({ seed: 2, count: 40_000, now: NOW, spanDays: 400 }))).not.toBe(columns(data));
  });

  it('roughly hits the target count, with unique ascending cdids', () => {
    expect(s.size).toBeGreaterThan(39_000);
    expect(s.size).toBeLessThan(42_000);
    let unordered = 0;
    for (let r = 1; r < s.size; r++) if ((s.cdid[r] ?? 0) <= (s.cdid[r - 1] ?? 0)) unordered++;
    expect(unordered).toBe(0);
  });

  it('report lag is minutes to hours, never over 36 hours, most within a few hours', () => {
    let within4h = 0;
    let outOfRange = 0;
    for (let r = 0; r < s.size; r++) {
      const lag = (s.reportedAt[r] ?? 0) - (s.occurredAt[r] ?? 0);
      if (lag <= 0 || lag > 36 * HOUR) outOfRange++;
      if (lag <= 4 * HOUR) within4h++;
    }
    expect(outOfRange).toBe(0);
    expect(within4h / s.size).toBeGreaterThan(0.6);
    expect(within4h / s.size).toBeLessThan(0.95);
  });

  it('follows local hour-of-day rhythm: evenings busier than early mornings, in every city', () => {
    CITIES.forEach((city, c) => {
      const byHour = new Array<number>(24).fill(0);
      for (let r = 0; r < s.size; r++) {
        if (s.city[r] !== c) continue;
        const h = new Date(s.zone(c).local(s.occurredAt[r] ?? 0)).getUTCHours();
        byHour[h] = (byHour[h] ?? 0) + 1;
      }
      const evening = (byHour[18] ?? 0) + (byHour[19] ?? 0) + (byHour[20] ?? 0);
      const dawn = (byHour[3] ?? 0) + (byHour[4] ?? 0) + (byHour[5] ?? 0);
      expect(evening, city.name).toBeGreaterThan(dawn * 3);
    });
  });

  it('places incidents near their city, on shared block points, with synthetic addresses', () => {
    const points = new Set<string>();
    let far = 0;
    let odd = 0;
    for (let r = 0; r < s.size; r++) {
      const city = CITIES[s.city[r] ?? 0];
      if (Math.hypot((s.lat[r] ?? 0) - (city?.lat ?? 0), (s.lon[r] ?? 0) - (city?.lon ?? 0)) > 0.6) far++;
      points.add(`${s.lat[r]},${s.lon[r]}`);
      if (!s.addressOverride.has(r) && !/^\d+ Block of [NSEW] Synthetic \w+ (St|Ave)$/.test(s.address(r)))
        odd++;
    }
    expect(far).toBe(0);
    expect(odd).toBe(0);
    expect(points.size).toBeLessThan(s.size * 0.8);
  });

  it(`has one block with ${BIG_BLOCK_COUNT} incidents that occurred and were reported on one local day`, () => {
    const b = data.fixtures.bigBlock;
    const zone = s.zone(0);
    const day = (ms: number): string => new Date(zone.local(ms)).toISOString().slice(0, 10);
    let n = 0;
    for (let r = 0; r < s.size; r++) {
      if (s.lat[r] !== b.lat || s.lon[r] !== b.lon) continue;
      if (day(s.occurredAt[r] ?? 0) !== b.date) continue;
      expect(day(s.reportedAt[r] ?? 0)).toBe(b.date);
      expect(s.address(r)).toBe(b.address);
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(BIG_BLOCK_COUNT);
    expect(n).toBeGreaterThan(500);
  });

  it('reports in the repeated hour of fall-back transitions print the same wall time twice', () => {
    const dates = new Map<string, number[]>();
    for (const cdid of data.fixtures.dstRepeatedHour) {
      const r = s.rowOf(cdid);
      const key = `${s.city[r]} ${liveIncident(s, r).date}`;
      dates.set(key, [...(dates.get(key) ?? []), s.reportedAt[r] ?? 0]);
    }
    expect(data.fixtures.dstRepeatedHour.length).toBeGreaterThanOrEqual(30);
    for (const [key, instants] of dates) {
      expect(key).toMatch(/ 11\/0[1-7]\/2[45] 01:[135]0 AM$/);
      expect(instants).toHaveLength(2);
      expect(Math.abs((instants[1] ?? 0) - (instants[0] ?? 0))).toBe(HOUR);
    }
  });

  it('gives each hostile address to one incident, three days before the clock', () => {
    expect(data.fixtures.specialAddresses.map((x) => x.address)).toEqual(SPECIAL_ADDRESSES);
    for (const { cdid, address } of data.fixtures.specialAddresses) {
      const r = s.rowOf(cdid);
      expect(liveIncident(s, r).address).toBe(address);
      expect((NOW - (s.occurredAt[r] ?? 0)) / HOUR).toBeGreaterThan(60);
    }
    expect(SPECIAL_ADDRESSES.some((a) => a.startsWith('='))).toBe(true);
    expect(SPECIAL_ADDRESSES.some((a) => a.includes('<script>'))).toBe(true);
  });
});
