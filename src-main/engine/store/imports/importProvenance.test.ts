/**
 * Imported rows keep where they came from: the file's name, the column mapping's name and its
 * fingerprint, their id in the other system and the file's kept columns — shown by getIncident for
 * the incident panel; a later import of the same rows (seen later) takes them over, an API row
 * never gets any.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../../src-shared/exports';
import type { ColumnMapping } from '../../../../src-shared/importMapping';
import type { IncidentDetail, ListResult } from '../../../../src-shared/incidentQueries';
import { openTestEngine, type TestEngine } from '../../export/exportTesting';
import { namespacedId } from '../../import/mapping/apply';
import { mappingHash } from './importProvenance';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);
const file = (name: string, text: string): string => t.file(name, text);
async function importFile(p: string, mapping?: ColumnMapping): Promise<void> {
  const pv = await call<ImportPreview>('previewImport', {
    source: { path: p },
    ...(mapping ? { mapping } : {}),
  });
  await call('runImport', { importId: pv.importId, onBadRows: 'abort' });
}

const MAPPING: ColumnMapping = {
  name: 'CPD',
  id: 'Incident Number',
  type: 'Offense',
  typeMap: { '0486': 'Assault' },
  address: 'Block Address',
  date: 'Date Reported',
  dateStyle: 'auto',
  location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 3435 },
  keep: ['Beat', 'Ward'],
};
const CSV = [
  'Incident Number,Offense,Block Address,Date Reported,X Coordinate,Y Coordinate,Beat,Ward',
  'JA100001,0486,012XX N STATE ST,05/10/2025 01:30 PM,1176200,1908600,1824,42',
  'JA100002,0820,004XX W ERIE ST,05/11/2025 09:05 AM,1172300,1904500,1831,',
].join('\n');

describe('where an imported incident came from', () => {
  it('keeps the file, the mapping and its hash, the external id and the kept columns', async () => {
    await importFile(file('cpd-may.csv', CSV), MAPPING);
    const one = await call<IncidentDetail>('getIncident', { cdid: namespacedId('CPD', 'JA100001') });
    expect(one.importedFrom).toEqual({
      fileName: 'cpd-may.csv',
      mappingName: 'CPD',
      mappingHash: mappingHash(MAPPING),
      importedAt: expect.any(Number),
      externalId: 'JA100001',
      attributes: { Beat: '1824', Ward: '42' },
    });
    expect(mappingHash(MAPPING)).toMatch(/^[0-9a-f]{16}$/);
    expect(mappingHash({ ...MAPPING, typeMap: { '0486': 'Battery' } })).not.toBe(mappingHash(MAPPING));
    const two = await call<IncidentDetail>('getIncident', { cdid: namespacedId('CPD', 'JA100002') });
    expect(two.importedFrom?.attributes).toEqual({ Beat: '1831' }); // an empty cell is not kept
  });

  it('a Blotter export keeps its file name, with no mapping; an API row has none', async () => {
    const own = [
      'cdid,type,address,lat,lon,occurred_local,timezone',
      '7,Theft,1 BLK MAIN ST,41.9,-87.63,2025-05-10T13:30,America/Chicago',
    ].join('\n');
    await importFile(file('blotter-export.csv', own));
    const d = await call<IncidentDetail>('getIncident', { cdid: 7 });
    expect(d.importedFrom).toMatchObject({
      fileName: 'blotter-export.csv',
      mappingName: null,
      externalId: null,
    });
    t.db.prepare(`UPDATE incidents SET source = 'api' WHERE cdid = 7`).run();
    expect((await call<IncidentDetail>('getIncident', { cdid: 7 })).importedFrom).toBeUndefined();
  });

  it('a later import that replaces a row takes over its provenance; one that changes nothing leaves it', async () => {
    const withSeen = (seen: string) =>
      [
        'cdid,type,address,lat,lon,occurred_local,timezone,last_seen',
        `9,Theft,1 BLK MAIN ST,41.9,-87.63,2025-05-10T13:30,America/Chicago,${seen}`,
        `10,Theft,2 BLK MAIN ST,41.9,-87.63,2025-05-10T13:30,America/Chicago,${seen}`,
      ].join('\n');
    await importFile(file('first.csv', withSeen('2025-05-11T00:00:00.000Z')));
    await importFile(file('later.csv', withSeen('2025-05-12T00:00:00.000Z')));
    await importFile(file('older.csv', withSeen('2025-05-01T00:00:00.000Z')));
    expect((await call<IncidentDetail>('getIncident', { cdid: 9 })).importedFrom?.fileName).toBe('later.csv');
  });

  it("listIncidents gives each row its origin and kept columns (the table's Source and attribute columns)", async () => {
    await importFile(file('cpd-may.csv', CSV), MAPPING);
    const own = [
      'cdid,type,address,lat,lon,occurred_local,timezone',
      '7,Theft,1 BLK MAIN ST,41.9,-87.63,2025-05-10T13:30,America/Chicago',
    ].join('\n');
    await importFile(file('blotter-export.csv', own));
    t.db.prepare(`UPDATE incidents SET source = 'api' WHERE cdid = 7`).run();
    const page = await call<ListResult>('listIncidents', { filters: { preset: 'all' } });
    const byCdid = new Map(page.rows.map((r) => [r.cdid, r]));
    expect(page.rows).toHaveLength(3);
    expect(byCdid.get(namespacedId('CPD', 'JA100001'))).toMatchObject({
      source: 'import',
      importFile: 'cpd-may.csv',
      attributes: { Beat: '1824', Ward: '42' },
    });
    expect(byCdid.get(namespacedId('CPD', 'JA100002'))?.attributes).toEqual({ Beat: '1831' });
    const api = byCdid.get(7);
    expect(api?.source).toBe('api');
    expect(api?.importFile).toBeUndefined();
    expect(api?.attributes).toBeUndefined();
  });
});
