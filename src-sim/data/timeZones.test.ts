import { describe, expect, it } from 'vitest';
import { ZoneTable, formatIsoWithOffset, formatLegacyDate, intlOffsetMinutes, parseDay } from './timeZones';

const utc = (iso: string): number => Date.parse(iso);

describe('time zones', () => {
  it('formats the legacy date as 12-hour, zero-padded local time', () => {
    expect(formatLegacyDate(utc('2025-03-04T00:05:00Z'))).toBe('03/04/25 12:05 AM');
    expect(formatLegacyDate(utc('2025-03-04T12:00:00Z'))).toBe('03/04/25 12:00 PM');
    expect(formatLegacyDate(utc('2009-12-31T23:59:00Z'))).toBe('12/31/09 11:59 PM');
  });

  it('tracks DST per zone, and Phoenix has none', () => {
    const from = utc('2025-01-01T00:00:00Z');
    const to = utc('2025-12-31T00:00:00Z');
    const ny = new ZoneTable('America/New_York', from, to);
    expect(ny.offset(utc('2025-01-15T12:00:00Z'))).toBe(-300);
    expect(ny.offset(utc('2025-07-15T12:00:00Z'))).toBe(-240);
    // 2025-11-02: 05:59Z is 01:59 EDT, 06:00Z is 01:00 EST.
    expect(ny.offset(utc('2025-11-02T05:59:00Z'))).toBe(-240);
    expect(ny.offset(utc('2025-11-02T06:00:00Z'))).toBe(-300);
    const phx = new ZoneTable('America/Phoenix', from, to);
    expect(phx.offset(utc('2025-07-15T12:00:00Z'))).toBe(-420);
    // Outside the table it falls back to Intl.
    expect(ny.offset(utc('2030-07-01T00:00:00Z'))).toBe(
      intlOffsetMinutes('America/New_York', utc('2030-07-01T00:00:00Z')),
    );
    expect(formatIsoWithOffset(utc('2025-11-02T06:30:00Z'), -300)).toBe('2025-11-02T01:30:00-05:00');
  });

  it('parses only real YYYY-MM-DD dates', () => {
    expect(parseDay('2024-02-29')).toBe(utc('2024-02-29T00:00:00Z') / 86_400_000);
    for (const bad of ['2025-02-29', '2025-13-01', '2025-1-01', '20250101', '2025-01-01T00:00']) {
      expect(parseDay(bad)).toBeNull();
    }
  });
});
