/**
 * Pins what each profile generates: a SHA-256 of the whole data set (every column of every row, its
 * address and link, the fixtures, the process state) and of what one evolve() then changes, for
 * several seeds, sizes, spans and clocks. The hashes were taken before the two generators became one;
 * a change to either profile's data (or to the order it draws its random numbers in) breaks them.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evolve } from './data/evolve';
import { generate, type Dataset, type GenerateOptions } from './data/generate';
import { liveIncident } from './data/serialize';
import { DEMO_PROFILE } from './demo/profile';

function digest(d: Dataset): string {
  const s = d.store;
  const h = createHash('sha256');
  h.update(JSON.stringify({ site: s.site ?? null, size: s.size, cities: s.cities.map((c) => c.name) }));
  for (let r = 0; r < s.size; r++) {
    const row = [
      s.cdid[r],
      s.lat[r],
      s.lon[r],
      s.occurredAt[r],
      s.reportedAt[r],
      s.occurredDay[r],
      s.type[r],
      s.city[r],
      s.removed[r],
      s.revision[r],
    ];
    h.update(JSON.stringify([row, liveIncident(s, r)]));
  }
  const { perHour, until, nextCdid } = d.process;
  h.update(
    JSON.stringify({ fixtures: d.fixtures, fixtureRows: [...d.fixtureRows], perHour, until, nextCdid }),
  );
  return h.digest('hex').slice(0, 16);
}

/** The data set's hash, then the hash after the clock moves 5 h and evolve() adds, amends and removes. */
function run(make: (o: GenerateOptions) => Dataset, o: GenerateOptions): [string, string] {
  const d = make(o);
  const before = digest(d);
  evolve(d, o.now + 5 * 3_600_000, { add: 25, amend: 7, remove: 4 });
  return [before, digest(d)];
}

const generateDemo = (o: GenerateOptions) => generate(o, DEMO_PROFILE);
const at = (iso: string) => Date.parse(iso);

describe('the profiles generate exactly what they generated before the generators were one', () => {
  it('test profile', () => {
    expect(run(generate, { seed: 1, count: 40_000, now: at('2025-11-20T15:00:00Z'), spanDays: 400 })).toEqual(
      ['095c881303a7d07c', 'd965582e1287ef01'],
    );
    expect(run(generate, { seed: 7, count: 5_000, now: at('2025-03-09T09:30:00Z'), spanDays: 60 })).toEqual([
      'd2085fbfa8dd610b',
      '243058fd94a5ceaa',
    ]);
    expect(run(generate, { seed: 42, count: 0, now: at('2024-11-03T08:00:00Z'), spanDays: 30 })).toEqual([
      '05fcb586324c7c44',
      '00d5efeb5995b811',
    ]);
  });

  it('demo profile', () => {
    expect(
      run(generateDemo, { seed: 1, count: 25_000, now: at('2025-11-20T15:00:00Z'), spanDays: 400 }),
    ).toEqual(['7ac795a93fd12bdc', 'df8e41a096fcb868']);
    expect(
      run(generateDemo, { seed: 7, count: 5_000, now: at('2025-03-09T09:30:00Z'), spanDays: 60 }),
    ).toEqual(['17de879ad7d70248', '524269e7453ff107']);
    expect(run(generateDemo, { seed: 42, count: 0, now: at('2024-11-03T08:00:00Z'), spanDays: 30 })).toEqual([
      'ae652b58c004d8a6',
      '3964c0e741e1bcce',
    ]);
  });
});
