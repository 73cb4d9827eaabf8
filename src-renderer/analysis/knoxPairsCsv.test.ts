import { describe, expect, it } from 'vitest';
import { knoxCellText, knoxPairsCsv, knoxPairsFile } from './knoxPairsCsv';

const incident = (cdid: number, address: string, utc: number) => ({
  cdid,
  type: 'Burglary',
  address,
  utc,
  zone: 'America/Chicago',
});

describe('a Knox cell’s pairs as CSV', () => {
  it('lists both incidents in local time, the distance in the bands’ unit and the days apart', () => {
    const csv = knoxPairsCsv(
      [
        {
          a: incident(11, '100 BLOCK OF W MAIN ST', Date.UTC(2026, 10, 2, 4, 30)),
          b: incident(12, '=HYPERLINK("x"), "quoted"', Date.UTC(2026, 10, 4, 18, 0)),
          distance: 212.5,
          days: 2,
        },
      ],
      'ft',
    );
    const [head, row, end] = csv.split('\r\n');
    expect(head).toBe(
      'first_id,first_type,first_address,first_local_time,second_id,second_type,second_address,second_local_time,distance_ft,days_apart',
    );
    expect(row).toMatch(/^11,Burglary,100 BLOCK OF W MAIN ST,"Nov 1, 2026, 10:30\s?PM CST",12,Burglary,/);
    expect(row).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
    expect(row).toMatch(/,212\.5,2$/);
    expect(end).toBe('');
  });

  it('names the cell in words and as a file', () => {
    const c = { space: [0, 400] as [number, number], time: [0, 7] as [number, number] };
    expect(knoxCellText(c, 'ft')).toBe('0–400 ft, 0–7 days');
    expect(knoxPairsFile(c, 'ft')).toBe('knox-pairs-0-400ft-0-7days.csv');
  });
});
