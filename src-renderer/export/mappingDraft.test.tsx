import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImportInspection } from '../../src-shared/importMappingCalls';
import { MappingEditor } from './MappingEditor';
import { draftOf, firstUnsure, mappingOf } from './mappingDraft';

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

  it('an address-only proposal (location none) goes back as proposed, opens on the location, and needs the address', () => {
    const addressOnly: ImportInspection = {
      ...inspection,
      columns: ['IncidentID', 'Offense', 'BlockNumber', 'StreetName', 'DateReported'],
      proposal: {
        name: 'Crime_Data',
        id: 'IncidentID',
        type: 'Offense',
        address: 'StreetName',
        block: 'BlockNumber',
        date: 'DateReported',
        location: { kind: 'none' },
        keep: [],
      },
      certainty: [
        { field: 'id', level: 'sure', note: '' },
        { field: 'type', level: 'sure', note: '' },
        { field: 'address', level: 'sure', note: '' },
        { field: 'date', level: 'sure', note: '' },
        { field: 'location', level: 'guess', note: 'No coordinates.' },
      ],
    };
    const d = draftOf(addressOnly);
    expect(d.location).toBe('none');
    expect(mappingOf(d)).toEqual({ mapping: { ...addressOnly.proposal, dateStyle: 'auto' } });
    expect(firstUnsure(addressOnly.certainty, d)).toBe('location');
    expect(mappingOf({ ...d, address: '', block: '' })).toEqual({
      missing: ['the address column (the rows are placed from it)'],
    });
    const html = renderToStaticMarkup(
      <MappingEditor inspection={addressOnly} draft={d} onChange={() => {}} />,
    );
    expect(html).toMatch(/checked=""[^>]*\/> No coordinates: the rows import as unplaced/);
    expect(html).not.toContain('X (easting)');
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

describe('one type for every row, and where the editor opens', () => {
  const shootings: ImportInspection = {
    ...inspection,
    fileName: 'NYPD_Shooting_Incident_Data.csv',
    columns: ['OCCUR_DATE', 'OCCUR_TIME', 'PRECINCT', 'Latitude', 'Longitude'],
    proposal: {
      name: 'NYPD_Shooting_Incident_Data',
      constantType: 'Shooting',
      date: 'OCCUR_DATE',
      time: 'OCCUR_TIME',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
      keep: ['PRECINCT'],
    },
    certainty: [
      { field: 'id', level: 'sure', note: 'No id column: each row is known by its content.' },
      {
        field: 'type',
        level: 'guess',
        note: 'No column holds the offence; the file’s name says every row is a shooting.',
      },
      { field: 'address', level: 'none', note: 'No address or block column.' },
      {
        field: 'date',
        level: 'sure',
        note: 'OCCUR_DATE with the time in OCCUR_TIME: when the incident occurred.',
      },
      { field: 'location', level: 'sure', note: 'Latitude and Longitude, in degrees.' },
    ],
  };

  it('a proposed constant type goes back as the mapping’s constantType, with no type column; blank, it is still to give', () => {
    const d = draftOf(shootings);
    expect(d).toMatchObject({ typeFrom: 'constant', constantType: 'Shooting', type: '' });
    expect(mappingOf(d)).toEqual({ mapping: { ...shootings.proposal, dateStyle: 'auto' } });
    expect(mappingOf({ ...d, constantType: ' ' })).toEqual({ missing: ['the type of every row'] });
    // Back to a column: the constant is dropped.
    const column = mappingOf({ ...d, typeFrom: 'column', type: 'PRECINCT' });
    expect(column).toMatchObject({ mapping: { type: 'PRECINCT' } });
    expect('constantType' in (column as { mapping: object }).mapping).toBe(false);
  });

  it('opens on the first field the proposal is not sure of (an optional address left blank is not one), none for a sure or saved proposal', () => {
    expect(firstUnsure(shootings.certainty, draftOf(shootings))).toBe('constantType');
    const sureType = shootings.certainty?.map((c) =>
      c.field === 'type' ? { ...c, level: 'sure' as const } : c,
    );
    expect(firstUnsure(sureType, draftOf(shootings))).toBeNull();
    const noPlace = sureType?.map((c) => (c.field === 'location' ? { ...c, level: 'none' as const } : c));
    expect(firstUnsure(noPlace, { ...draftOf(shootings), location: 'xy' })).toBe('x');
    const dateGuess = sureType?.map((c) => (c.field === 'date' ? { ...c, level: 'guess' as const } : c));
    expect(firstUnsure(dateGuess, draftOf(shootings))).toBe('date');
    expect(firstUnsure(undefined, draftOf(inspection))).toBeNull();
  });

  it('the editor says how sure the proposal is of each field, and offers the one type for every row', () => {
    const html = renderToStaticMarkup(
      <MappingEditor inspection={shootings} draft={draftOf(shootings)} onChange={() => {}} />,
    );
    expect(html).toContain(
      'data-testid="certainty-type" data-level="guess">Not sure — check it: No column holds the offence; the file’s name says every row is a shooting.',
    );
    expect(html).toContain('data-level="sure">Proposed: Latitude and Longitude, in degrees.');
    expect(html).toMatch(
      /<label for="[^"]*-constantType">Type of every row<\/label><input id="[^"]*-constantType" list="[^"]*" maxLength="100" value="Shooting"/,
    );
    expect(html).toContain('(none: one type for every row…)');
  });
});
