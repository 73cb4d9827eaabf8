/**
 * The engine side of the Import view's mapping editor: inspectImport (columns, first rows, each
 * column's values, a proposal with the State Plane zones the file's X/Y fit first), previewMapped
 * (the same file read again as the mapping changes; nothing written until runImport), saveMapping /
 * listMappings, and the saved mapping proposed for a file of the same header shape.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import type { ColumnMapping } from '../../../src-shared/importMapping';
import type { ImportInspection } from '../../../src-shared/importMappingCalls';
import { openTestEngine, type TestEngine } from '../export/exportTesting';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);
const file = (name: string, text: string): string => t.file(name, text);
const count = () => t.db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;

// Chicago, Illinois East State Plane (EPSG:3435, US feet).
const CHICAGO = [
  'Incident Number,Offense,Block Address,Date Reported,X Coordinate,Y Coordinate,Beat',
  'JA100001,0486,012XX N STATE ST,05/10/2025 01:30 PM,1176200,1908600,1824',
  'JA100002,0820,004XX W ERIE ST,05/11/2025 09:05 AM,1172300,1904500,1831',
  'JA100003,0486,016XX N CLARK ST,05/12/2025 11:59 PM,1174500,1911000,1814',
  'JA100004,0560,002XX E OHIO ST,05/13/2025 12:00 PM,1177900,1904300,1834',
].join('\n');

describe('the mapping editor’s calls', () => {
  it('inspects a records-system file: columns, first rows, offence codes, a proposal in the zones the X/Y fit', async () => {
    const ins = await call<ImportInspection>('inspectImport', { source: { path: file('cpd.csv', CHICAGO) } });
    expect(ins.ownColumns).toBe(false);
    expect(ins.columns).toEqual([
      'Incident Number',
      'Offense',
      'Block Address',
      'Date Reported',
      'X Coordinate',
      'Y Coordinate',
      'Beat',
    ]);
    expect(ins.sample).toHaveLength(4);
    expect(ins.sample[0]?.['Block Address']).toBe('012XX N STATE ST');
    expect(ins.values.Offense?.top).toEqual([
      { value: '0486', count: 2 },
      { value: '0560', count: 1 },
      { value: '0820', count: 1 },
    ]);
    expect(ins.proposal).toMatchObject({
      name: 'cpd',
      id: 'Incident Number',
      type: 'Offense',
      address: 'Block Address',
      date: 'Date Reported',
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate' },
      keep: ['Beat'],
    });
    // Illinois East in US feet is offered among the zones that fit, ahead of every zone that does not.
    const fitting = ins.zones.filter((z) => z.fits).map((z) => z.epsg);
    expect(fitting).toContain(3435);
    expect(ins.zones.findIndex((z) => !z.fits)).toBe(fitting.length);
    expect(ins.zones.length).toBeGreaterThan(300);
    expect(ins.saved).toBeUndefined();
    expect(count()).toBe(0);
  });

  it('previews again as the mapping changes, writes nothing until run, and proposes the saved mapping for the same header', async () => {
    const ins = await call<ImportInspection>('inspectImport', { source: { path: file('cpd.csv', CHICAGO) } });
    const wrong = {
      ...ins.proposal,
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 26971 },
    };
    // Illinois East in metres puts feet values far away: still valid numbers, but not Chicago.
    const first = await call<ImportPreview>('previewMapped', { fileId: ins.fileId, mapping: wrong });
    expect(first.valid + first.errorCount).toBe(4);
    const mapping: ColumnMapping = {
      ...(ins.proposal as ColumnMapping),
      name: 'CPD',
      typeMap: { '0486': 'Assault', '0820': 'Theft', '0560': 'New type: Battery' },
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 3435 },
    };
    const pv = await call<ImportPreview>('previewMapped', { fileId: ins.fileId, mapping });
    expect([pv.rows, pv.valid, pv.errorCount, pv.mapping]).toEqual([4, 4, 0, 'CPD']);
    expect(pv.sample.map((r) => r.type)).toEqual(['Assault', 'Theft', 'Assault', 'New type: Battery']);
    expect(pv.sample[0]?.lat).toBeCloseTo(41.904, 2);
    expect(pv.sample[0]?.lon).toBeCloseTo(-87.628, 2);
    expect(count()).toBe(0); // nothing until the user confirms
    const r = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'abort' });
    expect(r.inserted).toBe(4);
    expect(count()).toBe(4);
    // The mapping imported with is saved for the header shape, and proposed for the next such file.
    expect(
      (await call<{ mappings: { name: string }[] }>('listMappings', {})).mappings.map((m) => m.name),
    ).toEqual(['CPD']);
    const again = await call<ImportInspection>('inspectImport', {
      source: { path: file('cpd-june.csv', CHICAGO.replace('Beat', ' BEAT ').replace('Offense', 'OFFENSE')) },
    });
    expect(again.saved).toBe('CPD');
    // As this file spells its columns, so the editor's selects show them.
    expect(again.proposal).toMatchObject({
      name: 'CPD',
      type: 'OFFENSE',
      keep: ['BEAT'],
      typeMap: mapping.typeMap,
      location: mapping.location,
    });
  });

  it('saves a mapping by name only for columns the file has, and refuses a preview of a file no longer open', async () => {
    const ins = await call<ImportInspection>('inspectImport', { source: { path: file('cpd.csv', CHICAGO) } });
    const mapping = { ...(ins.proposal as ColumnMapping), name: 'Chicago' };
    await expect(
      call('saveMapping', { fileId: ins.fileId, mapping: { ...mapping, keep: ['Ward'] } }),
    ).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringContaining('Ward'),
    });
    expect(await call('saveMapping', { fileId: ins.fileId, mapping })).toEqual({ saved: 'Chicago' });
    expect(
      (await call<{ mappings: { name: string; columns: number }[] }>('listMappings', {})).mappings,
    ).toMatchObject([{ name: 'Chicago', columns: 7 }]);
    await call('inspectImport', { source: { path: file('other.csv', 'a,b\n1,2\n') } });
    await expect(call('previewMapped', { fileId: ins.fileId, mapping })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('says a Blotter export needs no mapping, and previews it by its own columns', async () => {
    const own = [
      'cdid,type,address,lat,lon,occurred_local,timezone',
      '7,Theft,1 BLK MAIN ST,41.9,-87.63,2025-05-10T13:30,America/Chicago',
    ].join('\n');
    const ins = await call<ImportInspection>('inspectImport', { source: { path: file('blotter.csv', own) } });
    expect(ins.ownColumns).toBe(true);
    const pv = await call<ImportPreview>('previewMapped', { fileId: ins.fileId });
    expect([pv.valid, pv.mapping]).toEqual([1, undefined]);
  });
});
