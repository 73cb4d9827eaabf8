import { describe, expect, it } from 'vitest';
import { incidentTime } from './incidentTime';
import { daysInMonth, formatLegacyDate, parseLegacyDate, wallAsUtcMs } from './legacyDate';
import { addDays, dayStartUtc, isDay, localDayOf } from './localDay';
import { wallToInstant } from './wallToInstant';
import { zoneAt } from './zoneAt';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('parseLegacyDate', () => {
  it('reads MM/DD/YY HH:MM AM/PM as 20YY, 12-hour clock', () => {
    expect(parseLegacyDate('03/07/25 12:05 AM')).toEqual({
      year: 2025,
      month: 3,
      day: 7,
      hour: 0,
      minute: 5,
    });
    expect(parseLegacyDate('03/07/25 12:05 PM')).toEqual({
      year: 2025,
      month: 3,
      day: 7,
      hour: 12,
      minute: 5,
    });
    expect(parseLegacyDate('12/31/99 11:59 PM')).toEqual({
      year: 2099,
      month: 12,
      day: 31,
      hour: 23,
      minute: 59,
    });
  });

  it('refuses what is not a real wall time', () => {
    for (const bad of [
      '02/30/25 01:00 AM',
      '13/01/25 01:00 AM',
      '01/01/25 13:00 PM',
      '01/01/25 00:10 AM',
      '2025-01-01',
      '',
    ]) {
      expect(parseLegacyDate(bad), bad).toBeNull();
    }
  });

  it('round-trips through the legacy format', () => {
    const w = { year: 2024, month: 11, day: 3, hour: 1, minute: 30 };
    expect(parseLegacyDate(formatLegacyDate(w))).toEqual(w);
  });
});

describe('wall times in the first century', () => {
  it('are read in their own year (Date.UTC would read 0050 as 1950)', () => {
    const w = { year: 50, month: 2, day: 3, hour: 4, minute: 5 };
    expect(wallAsUtcMs(w)).toBe(Date.parse('0050-02-03T04:05:00.000Z'));
    expect(wallAsUtcMs({ ...w, year: 2024 })).toBe(Date.parse('2024-02-03T04:05:00.000Z'));
    expect(daysInMonth(0, 2)).toBe(29); // year 0 is a leap year; 1900 was not
    expect(daysInMonth(1900, 2)).toBe(28);
  });
});

describe('zoneAt', () => {
  it.each([
    [41.8781, -87.6298, 'America/Chicago'],
    [40.7128, -74.006, 'America/New_York'],
    [39.7392, -104.9903, 'America/Denver'],
    [33.4484, -112.074, 'America/Phoenix'],
    [34.0522, -118.2437, 'America/Los_Angeles'],
    [39.9568, -86.0134, 'America/Indiana/Indianapolis'],
    [21.3069, -157.8583, 'Pacific/Honolulu'],
  ])('%f,%f is in %s', (lat, lon, zone) => {
    expect(zoneAt(lat, lon)).toBe(zone);
  });
});

describe('wallToInstant', () => {
  const w = (month: number, day: number, hour: number, minute = 30) => ({
    year: 2024,
    month,
    day,
    hour,
    minute,
  });

  it('converts ordinary times with the zone in force', () => {
    expect(wallToInstant(w(7, 4, 12), 'America/New_York')).toEqual({
      utcMs: Date.parse('2024-07-04T16:30:00Z'),
      flag: null,
    });
    expect(wallToInstant(w(1, 4, 12), 'America/Los_Angeles').utcMs).toBe(Date.parse('2024-01-04T20:30:00Z'));
    // Phoenix keeps standard time all year.
    expect(wallToInstant(w(7, 4, 12), 'America/Phoenix').utcMs).toBe(Date.parse('2024-07-04T19:30:00Z'));
  });

  it('takes the earlier instant for the repeated hour of a fall-back and flags it', () => {
    const r = wallToInstant(w(11, 3, 1), 'America/New_York');
    expect(r.flag).toBe('ambiguous');
    expect(iso(r.utcMs)).toBe('2024-11-03T05:30:00.000Z'); // 01:30 EDT, the first pass
    const chi = wallToInstant(w(11, 3, 1), 'America/Chicago');
    expect([chi.flag, iso(chi.utcMs)]).toEqual(['ambiguous', '2024-11-03T06:30:00.000Z']);
  });

  it('shifts a time in the spring-forward gap forward by the gap and flags it', () => {
    const r = wallToInstant(w(3, 10, 2), 'America/New_York');
    expect(r.flag).toBe('nonexistent');
    expect(iso(r.utcMs)).toBe('2024-03-10T07:30:00.000Z'); // = 03:30 EDT
    const den = wallToInstant(w(3, 10, 2, 0), 'America/Denver');
    expect([den.flag, iso(den.utcMs)]).toEqual(['nonexistent', '2024-03-10T09:00:00.000Z']);
  });

  it('has no DST flags where there is no DST', () => {
    expect(wallToInstant(w(3, 10, 2), 'America/Phoenix').flag).toBeNull();
    expect(wallToInstant(w(11, 3, 1), 'America/Phoenix').flag).toBeNull();
  });

  it('flags the times just around transitions correctly', () => {
    expect(wallToInstant(w(11, 3, 0, 59), 'America/New_York').flag).toBeNull();
    expect(wallToInstant(w(11, 3, 2, 0), 'America/New_York').flag).toBeNull();
    expect(wallToInstant(w(3, 10, 1, 59), 'America/New_York').flag).toBeNull();
    expect(wallToInstant(w(3, 10, 3, 0), 'America/New_York').flag).toBeNull();
  });
});

describe('incidentTime', () => {
  it('keeps the wall time and derives zone, instant, day, hour and weekday', () => {
    expect(incidentTime('11/03/24 01:30 AM', 41.8781, -87.6298)).toEqual({
      occurredLocal: '2024-11-03T01:30',
      timezone: 'America/Chicago',
      occurredUtc: Date.parse('2024-11-03T06:30:00Z'),
      timeFlag: 'ambiguous',
      localDay: '2024-11-03',
      localHour: 1,
      localWeekday: 0,
    });
    expect(incidentTime('07/04/25 11:15 PM', 34.0522, -118.2437)).toMatchObject({
      timezone: 'America/Los_Angeles',
      occurredUtc: Date.parse('2025-07-05T06:15:00Z'),
      localDay: '2025-07-04',
      localHour: 23,
      localWeekday: 5,
      timeFlag: null,
    });
  });

  it('is null for an unreadable date', () => {
    expect(incidentTime('yesterday', 40, -74)).toBeNull();
  });
});

describe('local days', () => {
  it('finds the local day of an instant and the first instant of a day', () => {
    expect(localDayOf(Date.parse('2024-07-05T03:00:00Z'), 'America/New_York')).toBe('2024-07-04');
    expect(iso(dayStartUtc('2024-07-04', 'America/Denver'))).toBe('2024-07-04T06:00:00.000Z');
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(isDay('2024-02-30')).toBe(false);
    expect(isDay('2024-02-29')).toBe(true);
  });
});
