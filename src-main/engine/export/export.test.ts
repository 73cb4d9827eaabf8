/**
 * The cell rules of the one export pipeline (csv.ts, geojson.ts): batchFormat.ts applies them on the
 * engine thread and storedFormat.ts on the export thread. The files themselves are tested through
 * the export job (exportJob.test.ts, parallelExport.test.ts) and across hosts
 * (src-main/cli/sameAnswers.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { csvField, neutralise } from '../files/csv';
import { feature } from './geojson';
import { EXPORT_COLUMNS, type ExportRow } from './rows';

const row: ExportRow = {
  cdid: 7,
  type: 'Theft',
  occurred_local: '2025-05-10T13:30',
  timezone: 'America/Chicago',
  occurred_utc: '2025-05-10T18:30:00.000Z',
  date_raw: '05/10/25 01:30 PM',
  address: '=HYPERLINK("http://evil")',
  lat: 41.88,
  lon: -87.63,
  link: 'https://crime.example.test/incident/7',
  description: 'Main St, "Apt 4"\r\nrear',
  first_seen: '2025-06-15T12:26:40.000Z',
  last_seen: '2025-06-15T12:26:40.000Z',
  removed: false,
  subtype: null,
  attributes: null,
};

describe('CSV cells', () => {
  it('quotes per RFC 4180 and neutralises formula cells, leaving numbers alone', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(bad)).toBe(`'${bad}`);
    expect(csvField(-87.63, true)).toBe('-87.63');
    expect(csvField(null)).toBe('');
  });
});

describe('GeoJSON features', () => {
  it('is a Point at [lon, lat] with the export columns as properties', () => {
    const f = JSON.parse(feature(row)) as {
      type: string;
      geometry: { type: string; coordinates: number[] };
      properties: Record<string, unknown>;
    };
    expect(f.type).toBe('Feature');
    expect(f.geometry).toEqual({ type: 'Point', coordinates: [-87.63, 41.88] });
    expect(Object.keys(f.properties).sort()).toEqual([...EXPORT_COLUMNS].sort());
    expect(f.properties.address).toBe('=HYPERLINK("http://evil")');
  });
});
