import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/database';
import { createIncidentWriter } from '../sync/incidentWriter';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { csvChunks, csvField, neutralise } from './csv';
import { exportRows, EXPORT_COLUMNS } from './rows';
import { writeExport } from './writeExport';

let dir: TempDir;
let db: Db;

const incident = (
  cdid: number,
  over: Partial<{ type: string; address: string; lat: number; lon: number; date: string }> = {},
) => ({
  cdid,
  type: 'Theft',
  address: `${cdid} Block of N Synthetic Oak St`,
  lat: 41.88,
  lon: -87.63,
  link: `https://crime.example.test/incident/${cdid}`,
  date: '05/10/25 01:30 PM',
  ...over,
});

beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(`${dir.path}/x.sqlite`);
  const w = createIncidentWriter(db);
  const rows = [
    incident(1, { address: '=HYPERLINK("http://evil")', type: 'Assault' }),
    incident(2, { address: 'Main St, "Apt 4"\r\nrear', date: '05/12/25 09:00 AM' }),
    incident(3, { address: '+1 Block', lat: 41.95, lon: -87.7 }),
    incident(4, { address: '@home', date: '05/20/25 11:59 PM' }),
    incident(5, { address: '-minus', type: 'Arrest' }),
    incident(6, { address: '\tTabbed' }),
  ];
  for (let c = 100; c < 2600; c++) rows.push(incident(c, { lat: 40 + (c % 10) / 100, lon: -74 }));
  db.transaction(() => w.upsert(rows, 1_750_000_000_000, () => true))();
  db.prepare('UPDATE incidents SET removed_at = 1, removed_reason = ? WHERE cdid = 4').run('gone');
});
afterEach(() => {
  db.close();
  dir.remove();
});

function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return out;
}

async function exportText(format: 'csv' | 'geojson', filter = {}, bom = false): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString('utf8');
      cb();
    },
  });
  await writeExport(db, filter, format, sink, { bom });
  return text;
}

describe('CSV', () => {
  it('quotes per RFC 4180 and neutralises formula cells, leaving numbers alone', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(bad)).toBe(`'${bad}`);
    expect(csvField(-87.63, true)).toBe('-87.63');
    expect(csvField(null)).toBe('');
  });

  it('writes a header and one row per incident that a CSV reader reads back exactly', async () => {
    const text = await exportText('csv', {}, true);
    expect(text.startsWith('\uFEFFcdid,type,occurred_local,timezone,occurred_utc')).toBe(true);
    const rows = parseCsv(text.slice(1));
    expect(rows[0]).toEqual([...EXPORT_COLUMNS]);
    expect(rows).toHaveLength(1 + 6 + 2500);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get('1')?.[6]).toBe(`'=HYPERLINK("http://evil")`);
    expect(byId.get('2')?.[6]).toBe('Main St, "Apt 4"\r\nrear');
    expect(byId.get('3')?.[6]).toBe("'+1 Block");
    expect(byId.get('5')?.[6]).toBe("'-minus");
    expect(byId.get('6')?.[6]).toBe("'\tTabbed");
    const one = byId.get('1') as string[];
    expect(one.slice(2, 6)).toEqual([
      '2025-05-10T13:30',
      'America/Chicago',
      '2025-05-10T18:30:00.000Z',
      '05/10/25 01:30 PM',
    ]);
    expect([one[7], one[8], one[13]]).toEqual(['41.88', '-87.63', 'false']);
    expect(byId.get('4')?.[13]).toBe('true');
  });

  it('streams in chunks rather than one string', () => {
    const chunks = [...csvChunks(exportRows(db))];
    expect(chunks.length).toBeGreaterThan(4);
  });
});

describe('filters and GeoJSON', () => {
  it('filters by type, local days and area', () => {
    expect([...exportRows(db, { types: ['arrest', 'ASSAULT'] })].map((r) => r.cdid)).toEqual([1, 5]);
    expect([...exportRows(db, { from: '2025-05-11', to: '2025-05-19' })].map((r) => r.cdid)).toEqual([2]);
    const area = { kind: 'circle' as const, lat: 41.95, lon: -87.7, radiusMi: 0.5 };
    expect([...exportRows(db, { area })].map((r) => r.cdid)).toEqual([3]);
    expect([...exportRows(db, { includeRemoved: false })].some((r) => r.cdid === 4)).toBe(false);
  });

  it('writes one FeatureCollection with the same properties', async () => {
    const json = JSON.parse(await exportText('geojson', { types: ['Assault'] })) as {
      type: string;
      features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[];
    };
    expect(json.type).toBe('FeatureCollection');
    expect(json.features).toHaveLength(1);
    expect(json.features[0]?.geometry.coordinates).toEqual([-87.63, 41.88]);
    expect(Object.keys(json.features[0]?.properties ?? {}).sort()).toEqual([...EXPORT_COLUMNS].sort());
  });
});
