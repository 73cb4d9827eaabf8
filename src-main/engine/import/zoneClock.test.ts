import { describe, expect, it } from 'vitest';
import { fakeUtcToInstant } from '../time/wallToInstant';
import { normalize, type ImportRow } from './normalize';
import { wallToUtc } from './zoneClock';

const DAY = 86_400_000;
const MINUTE = 60_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** occurred_local text of a fake-UTC wall time. */
const localText = (wall: number): string => iso(wall).slice(0, 16);

// Days with a clock change (spring forward, fall back), in zones with different rules: US, EU,
// the southern hemisphere, and Lord Howe's half-hour change.
const CHANGE_DAYS: [zone: string, day: string][] = [
  ['America/New_York', '2024-03-10'],
  ['America/New_York', '2024-11-03'],
  ['America/Chicago', '2025-03-09'],
  ['America/Chicago', '2025-11-02'],
  ['America/Denver', '2024-03-10'],
  ['America/Los_Angeles', '2024-11-03'],
  ['Europe/Berlin', '2024-03-31'],
  ['Europe/London', '2024-10-27'],
  ['Australia/Sydney', '2024-04-07'],
  ['Australia/Lord_Howe', '2024-10-06'],
  ['Pacific/Auckland', '2024-09-29'],
  ['America/Santiago', '2024-04-07'],
];

describe('wall time → instant in the import (once per zone and day)', () => {
  it('reads every minute of the days around a clock change as the time module does', () => {
    for (const [zone, day] of CHANGE_DAYS) {
      const start = Date.parse(`${day}T00:00Z`) - DAY;
      for (let wall = start; wall < start + 3 * DAY; wall += MINUTE) {
        const want = fakeUtcToInstant(wall, zone);
        const got = wallToUtc(wall, zone);
        if (got.utcMs !== want.utcMs || got.flag !== want.flag)
          expect({ zone, wall: localText(wall), got }).toEqual({ zone, wall: localText(wall), got: want });
      }
    }
  });

  const row = (local: string, timezone: string): ImportRow => {
    const r = normalize(
      { cdid: '7', type: 'Theft', lat: '41.5', lon: '-87.6', occurred_local: local, timezone },
      { unneutralise: true },
    );
    if (!Array.isArray(r)) throw new Error(r.message);
    return r;
  };
  const occurred = (r: ImportRow): [string, string | null] => [iso(r[9]), r[10]];

  it("gives a Blotter file's rows the skipped hour read forward and the repeated hour's first pass, in two zones", () => {
    // Spring forward: 02:30 does not exist; read with the offset before the jump (03:30 daylight).
    expect(occurred(row('2024-03-10T02:30', 'America/New_York'))).toEqual([
      '2024-03-10T07:30:00.000Z',
      'nonexistent',
    ]);
    expect(occurred(row('2024-03-10T01:59', 'America/New_York'))).toEqual(['2024-03-10T06:59:00.000Z', null]);
    expect(occurred(row('2024-03-10T03:00', 'America/New_York'))).toEqual(['2024-03-10T07:00:00.000Z', null]);
    expect(occurred(row('2024-03-31T02:15', 'Europe/Berlin'))).toEqual([
      '2024-03-31T01:15:00.000Z',
      'nonexistent',
    ]);
    // Fall back: 01:30 happens twice; the first pass (daylight time) is taken and flagged.
    expect(occurred(row('2024-11-03T01:30', 'America/New_York'))).toEqual([
      '2024-11-03T05:30:00.000Z',
      'ambiguous',
    ]);
    expect(occurred(row('2024-11-03T02:00', 'America/New_York'))).toEqual(['2024-11-03T07:00:00.000Z', null]);
    expect(occurred(row('2024-11-03T00:59', 'America/New_York'))).toEqual(['2024-11-03T04:59:00.000Z', null]);
    expect(occurred(row('2024-10-27T02:30', 'Europe/Berlin'))).toEqual([
      '2024-10-27T00:30:00.000Z',
      'ambiguous',
    ]);
    expect(occurred(row('2024-10-27T03:00', 'Europe/Berlin'))).toEqual(['2024-10-27T02:00:00.000Z', null]);
  });

  it("gives every minute of a change day's rows the previous per-row conversion's instant and flag", () => {
    for (const [zone, day] of CHANGE_DAYS.slice(0, 8)) {
      const start = Date.parse(`${day}T00:00Z`);
      for (let wall = start; wall < start + DAY; wall += MINUTE) {
        const r = row(localText(wall), zone);
        const want = fakeUtcToInstant(wall, zone);
        if (r[9] !== want.utcMs || r[10] !== want.flag)
          expect({ zone, wall: localText(wall), got: occurred(r) }).toEqual({
            zone,
            wall: localText(wall),
            got: [iso(want.utcMs), want.flag],
          });
      }
    }
  });

  it("keeps a row's local text, day and API date as before", () => {
    const r = row('2024-11-03T13:05', 'America/Chicago');
    expect([r[6], r[7], r[11], r[12], r[13]]).toEqual([
      '11/03/24 01:05 PM',
      '2024-11-03T13:05',
      '2024-11-03',
      13,
      0,
    ]);
    const bad = normalize(
      { cdid: '7', type: 'T', lat: '1', lon: '1', occurred_local: '2024-02-30T10:00', timezone: 'UTC' },
      { unneutralise: true },
    );
    expect(bad).toEqual({
      field: 'occurred_local',
      message: 'occurred_local must be a local time written YYYY-MM-DDTHH:MM.',
    });
  });

  it("reads Blotter's instants (first_seen) as Date.parse does, every year from 0000 to 9999", () => {
    const seen = (text: string): number | null => {
      const r = normalize(
        {
          cdid: '7',
          type: 'T',
          lat: '1',
          lon: '1',
          occurred_local: '2024-01-01T00:00',
          timezone: 'UTC',
          first_seen: text,
        },
        { unneutralise: true },
      );
      if (!Array.isArray(r)) throw new Error(r.message);
      return r[15];
    };
    for (let y = 0; y <= 9999; y++)
      for (const md of [
        '01-01T00:00:00.000',
        '02-28T12:30:59.999',
        '03-01T23:59:58.001',
        '12-31T23:59:59.999',
      ]) {
        const text = `${String(y).padStart(4, '0')}-${md}Z`;
        const got = seen(text);
        if (got !== Date.parse(text)) expect([text, got]).toEqual([text, Date.parse(text)]);
      }
    expect(seen('2024-02-29T10:00:00.000Z')).toBe(Date.parse('2024-02-29T10:00:00.000Z'));
    // Year 0 is a leap year (proleptic Gregorian), and 0050 is not 1950.
    expect(seen('0000-02-29T10:00:00.000Z')).toBe(Date.parse('0000-02-29T10:00:00.000Z'));
    expect(new Date(seen('0050-06-01T00:00:00.000Z') as number).getUTCFullYear()).toBe(50);
  });

  it('keeps a local time in a year 0000–0099 in its own year, not 19YY', () => {
    const r = normalize(
      { cdid: '7', type: 'T', lat: '1', lon: '1', occurred_local: '0050-03-01T10:00', timezone: 'UTC' },
      { unneutralise: true },
    );
    if (!Array.isArray(r)) throw new Error(r.message);
    expect(r).toContain(Date.parse('0050-03-01T10:00:00.000Z'));
    expect(r).toContain('0050-03-01T10:00');
  });
});
