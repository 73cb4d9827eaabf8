import { describe, expect, it } from 'vitest';
import type { ImportInspection } from '../../src-shared/importMappingCalls';
import { draftOf, mappingOf } from './mappingDraft';

const inspection: ImportInspection = {
  fileId: '0123456789abcdef',
  fileName: 'cpd.csv',
  ownColumns: false,
  columns: ['Incident Number', 'Offense', 'Block Address', 'Date Reported', 'X', 'Y', 'Beat', 'Ward'],
  sample: [],
  rowsRead: 0,
  values: {},
  proposal: {
    name: 'cpd',
    id: 'Incident Number',
    type: 'Offense',
    date: 'Date Reported',
    location: { kind: 'xy', x: 'X', y: 'Y', epsg: 3435 },
    keep: ['Beat', 'Ward'],
  },
  zones: [{ epsg: 3435, name: 'NAD83 / Illinois East (ftUS)', unit: 'us-ft', fits: true }],
};

describe('the mapping editor’s draft', () => {
  it('comes from the proposal and goes back as the same mapping', () => {
    const r = mappingOf(draftOf(inspection));
    expect(r).toEqual({
      mapping: { ...inspection.proposal, dateStyle: 'auto' },
    });
  });

  it('drops empty value-map entries and kept columns that became fields', () => {
    const d = {
      ...draftOf(inspection),
      address: 'Block Address',
      description: 'Ward',
      typeMap: { '0486': 'Assault', '0820': '' },
    };
    const r = mappingOf(d);
    expect(r).toMatchObject({
      mapping: { typeMap: { '0486': 'Assault' }, keep: ['Beat'], description: 'Ward' },
    });
  });

  it('names what is still to choose before the file can be previewed', () => {
    const d = { ...draftOf(inspection), name: ' ', type: '', system: 'wkt', wkt: '' };
    expect(mappingOf(d)).toEqual({
      missing: ['a name for the mapping', 'the type (offence) column', 'the .prj or WKT text'],
    });
    const latlon = { ...draftOf(inspection), location: 'latlon' as const, lat: 'Y', lon: 'X' };
    expect(mappingOf(latlon)).toMatchObject({
      mapping: { location: { kind: 'latlon', lat: 'Y', lon: 'X' } },
    });
  });
});
