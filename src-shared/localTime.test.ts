import { describe, expect, it } from 'vitest';
import { dayRangeText, dayText, instantText, monthText, wallTimeText, zoneAbbreviation } from './localTime';

describe('the one date formatter', () => {
  it('follows the user’s locale', () => {
    expect(dayText('2026-07-04', { locale: 'en-GB' })).toBe('4 Jul 2026');
    expect(dayText('2026-07-04', { locale: 'en-US' })).toBe('Jul 4, 2026');
    expect(dayText('2026-07-04', { locale: 'de-DE' })).toBe('4. Juli 2026');
    expect(monthText('2026-07', { locale: 'en-GB' })).toBe('Jul 2026');
    expect(dayRangeText('2026-08-25', '2026-11-22', { locale: 'en-GB' })).toBe('25 Aug – 22 Nov 2026');
    expect(dayRangeText('2025-12-30', '2026-01-02', { locale: 'en-US' })).toBe('Dec 30, 2025 – Jan 2, 2026');
  });

  it('prints an incident’s wall time as the API gave it, with its zone’s abbreviation at the instant', () => {
    // 01:30 on the night the clocks go back happens twice in Chicago: CDT, then CST.
    expect(
      wallTimeText('2026-11-01T01:30', 'America/Chicago', Date.UTC(2026, 10, 1, 6, 30), { locale: 'en-GB' }),
    ).toBe('1 Nov 2026, 01:30 CDT');
    expect(
      wallTimeText('2026-11-01T01:30', 'America/Chicago', Date.UTC(2026, 10, 1, 7, 30), { locale: 'en-US' }),
    ).toBe('Nov 1, 2026, 1:30 AM CST');
    expect(zoneAbbreviation('America/Phoenix', Date.UTC(2026, 6, 4))).toBe('MST');
    expect(zoneAbbreviation('Mars/Olympus_Mons', 0)).toBe('Mars/Olympus_Mons');
  });

  it('prints an instant in the zone it belongs to, not in UTC', () => {
    // 03:00 UTC on 11 May is still 10 May, 22:00 in Chicago.
    const ms = Date.UTC(2025, 4, 11, 3, 0);
    expect(instantText(ms, 'America/Chicago', { locale: 'en-GB' })).toBe('10 May 2025, 22:00 CDT');
    expect(instantText(ms, 'America/Denver', { locale: 'en-US' })).toBe('May 10, 2025, 9:00 PM MDT');
    expect(instantText(ms, 'Nowhere/Unknown', { locale: 'en-GB' })).toBe('11 May 2025, 03:00 UTC');
    expect(instantText(Number.NaN)).toBe('—');
  });
});
