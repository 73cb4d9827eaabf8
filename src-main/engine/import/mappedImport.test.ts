/**
 * Importing other systems' files through a column mapping, end to end (previewImport with a
 * mapping → runImport): a records-system export in State Plane US feet with separate date and time
 * columns and offence codes, a dispatch export with Excel serial dates in international-foot State
 * Plane, and one with lat/lon and ISO instants. Counts, coordinates (against cs2cs), local times
 * and the ids' namespace are checked in the store.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import type { ColumnMappingInput } from '../../../src-shared/importMapping';
import { milesBetween } from '../../../src-shared/geo';
import { openTestEngine, type TestEngine } from '../export/exportTesting';
import { namespacedId } from './mapping/apply';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);
const file = (name: string, text: string): string => t.file(name, text);
const stored = (cdid: number) =>
  t.db.prepare('SELECT * FROM incidents WHERE cdid = ?').get(cdid) as Record<string, unknown> | undefined;
const count = () => t.db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;

function cs2cs(epsg: number, x: number, y: number): { lat: number; lon: number } {
  const out = execFileSync('cs2cs', ['-f', '%.10f', `EPSG:${epsg}`, 'EPSG:4269'], {
    input: `${x} ${y}\n`,
  }).toString();
  const [lat, lon] = out.trim().split(/\s+/).map(Number) as [number, number];
  return { lat, lon };
}
const metres = (a: Record<string, unknown>, b: { lat: number; lon: number }) =>
  milesBetween(a.lat as number, a.lon as number, b.lat, b.lon) * 1609.344;

const RMS = [
  'Incident Number,Offense,Block Address,Date Reported,Time Reported,X Coordinate,Y Coordinate,Beat',
  '25-000123,23F,1200 BLK MAIN ST,05/10/2025,1330,2484000,6965000,114',
  '25-000124,13A,400 BLK ELM ST,05/11/2025,0005,2486500,6967250,115',
  '25-000125,90Z,"99 BLK OAK LN, REAR",05/12/2025,2359,2483000,6964000,114',
  '25-000126,23F,1 BLK NOWHERE,05/13/2025,1200,,6964000,114',
  '25-000127,23F,2 BLK NOWHERE,05/32/2025,1200,2483000,6964000,114',
].join('\r\n');

const RMS_MAPPING: ColumnMappingInput = {
  name: 'Dallas RMS',
  id: 'Incident Number',
  type: 'Offense',
  typeMap: { '23F': 'Theft', '13A': 'Assault' },
  address: 'Block Address',
  date: 'Date Reported',
  time: 'Time Reported',
  location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
  keep: ['Beat'],
};

describe('an import through a column mapping', () => {
  it('reads a State Plane (US feet) records-system export: codes to types, times local, ids namespaced, bad rows named', async () => {
    const p = file('rms.csv', RMS);
    // Without a mapping, the file's columns are refused once.
    await expect(call('previewImport', { source: { path: p } })).rejects.toMatchObject({ code: 'bad_input' });
    const pv = await call<ImportPreview>('previewImport', { source: { path: p }, mapping: RMS_MAPPING });
    expect([pv.rows, pv.valid, pv.errorCount]).toEqual([5, 3, 2]);
    expect(pv.errors).toEqual([
      {
        row: 4,
        field: 'X Coordinate',
        message: expect.stringMatching(/^X Coordinate: expected an X coordinate/),
      },
      {
        row: 5,
        field: 'Date Reported',
        message: expect.stringMatching(/^Date Reported: expected a real calendar day/),
      },
    ]);
    expect(count()).toBe(0); // nothing until the user confirms
    const run = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'skip' });
    expect(run.inserted).toBe(3);
    const a = stored(namespacedId('Dallas RMS', '25-000123')) as Record<string, unknown>;
    expect(a).toMatchObject({
      type: 'Theft',
      address: '1200 BLK MAIN ST',
      occurred_local: '2025-05-10T13:30',
      timezone: 'America/Chicago',
      source: 'import',
    });
    expect(metres(a, cs2cs(2276, 2_484_000, 6_965_000))).toBeLessThan(1);
    expect(stored(namespacedId('Dallas RMS', '25-000124'))).toMatchObject({
      type: 'Assault',
      occurred_local: '2025-05-11T00:05',
    });
    expect(stored(namespacedId('Dallas RMS', '25-000125'))).toMatchObject({
      type: '90Z',
      address: '99 BLK OAK LN, REAR',
    });
    expect(t.db.prepare('SELECT count(*) FROM incidents WHERE cdid > 0').pluck().get()).toBe(0);
  });

  it('with onBadRows abort, a bad row imports nothing (all or nothing)', async () => {
    const pv = await call<ImportPreview>('previewImport', {
      source: { path: file('rms.csv', RMS) },
      mapping: RMS_MAPPING,
    });
    await expect(call('runImport', { importId: pv.importId, onBadRows: 'abort' })).rejects.toBeTruthy();
    expect(count()).toBe(0);
  });

  it('reads a dispatch export with Excel serial dates in international-foot State Plane (Michigan South)', async () => {
    const p = file(
      'cad.csv',
      [
        'CAD No,Call Type,Location,Received,Easting,Northing',
        'C1,BURG,100 W MAIN,45787.5625,13100000,280000',
        'C2,BURG,200 W MAIN,45788.25,13101000,281000',
      ].join('\n'),
    );
    const pv = await call<ImportPreview>('previewImport', {
      source: { path: p },
      mapping: {
        name: 'County CAD',
        id: 'CAD No',
        type: 'Call Type',
        typeMap: { BURG: 'Burglary' },
        address: 'Location',
        date: 'Received',
        location: { kind: 'xy', x: 'Easting', y: 'Northing', epsg: 2253 },
      },
    });
    expect([pv.valid, pv.errorCount]).toEqual([2, 0]);
    await call('runImport', { importId: pv.importId });
    const c1 = stored(namespacedId('County CAD', 'C1')) as Record<string, unknown>;
    expect(c1).toMatchObject({
      type: 'Burglary',
      occurred_local: '2025-05-10T13:30',
      timezone: 'America/Detroit',
    });
    expect(metres(c1, cs2cs(2253, 13_100_000, 280_000))).toBeLessThan(1);
    expect(stored(namespacedId('County CAD', 'C2'))).toMatchObject({ occurred_local: '2025-05-11T06:00' });
  });

  it('reads lat/lon with ISO instants (the zone’s wall time) and keeps a Blotter export’s cdid', async () => {
    const p = file(
      'blotterish.csv',
      ['cdid,Category,Lat,Lng,When', '777,Theft,41.88,-87.63,2025-05-10T18:30:00Z'].join('\n'),
    );
    const pv = await call<ImportPreview>('previewImport', {
      source: { path: p },
      mapping: {
        name: 'mine',
        id: 'cdid',
        type: 'Category',
        date: 'When',
        location: { kind: 'latlon', lat: 'Lat', lon: 'Lng' },
      },
    });
    await call('runImport', { importId: pv.importId });
    expect(stored(777)).toMatchObject({
      type: 'Theft',
      occurred_local: '2025-05-10T13:30',
      timezone: 'America/Chicago',
    });
  });

  it('refuses a mapping that names columns the file lacks, once', async () => {
    const p = file('rms.csv', RMS);
    await expect(
      call('previewImport', { source: { path: p }, mapping: { ...RMS_MAPPING, time: 'Hour' } }),
    ).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/does not have: Hour/) });
  });
});

describe('saved mappings', () => {
  it('a mapping used once is saved by name and reused for a file with the same header shape (names trimmed, any case, any order)', async () => {
    const first = await call<ImportPreview>('previewImport', {
      source: { path: file('rms.csv', RMS) },
      mapping: RMS_MAPPING,
    });
    expect(first.mapping).toBe('Dallas RMS');
    await call('discardImport', { importId: first.importId });
    const [, ...rest] = RMS.split('\r\n');
    // The same set of names in another order and case, with spaces around.
    const reordered = [
      'BEAT, offense ,Incident Number,block address,DATE REPORTED,Time Reported,x coordinate,Y Coordinate',
      ...rest.map((line) => {
        const c = line.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((x) => x.replace(/,$/, ''));
        return [c[7], c[1], c[0], c[2], c[3], c[4], c[5], c[6]].join(',');
      }),
    ].join('\n');
    const again = await call<ImportPreview>('previewImport', {
      source: { path: file('rms2.csv', reordered) },
    });
    expect(again.mapping).toBe('Dallas RMS');
    expect([again.valid, again.errorCount]).toEqual([3, 2]);
  });
});

describe('namespaced ids and the API', () => {
  it('an imported row from another system is never asked of the API (details)', async () => {
    const pv = await call<ImportPreview>('previewImport', {
      source: { path: file('rms.csv', RMS) },
      mapping: RMS_MAPPING,
    });
    await call('runImport', { importId: pv.importId, onBadRows: 'skip' });
    const requested: number[] = [];
    const { fetchDetail } = await import('../sync/details');
    const description = await fetchDetail(
      {
        db: t.db,
        jobs: {} as never,
        writer: {} as never,
        requester: { detail: async (cdid: number) => (requested.push(cdid), { incident: null }) } as never,
        now: () => 0,
      },
      namespacedId('Dallas RMS', '25-000123'),
      null,
    );
    expect(description).toBeNull();
    expect(requested).toEqual([]);
  });
});
