/**
 * The proposal for real police exports, field by field: three shared real files (excerpts
 * committed in fixtures/, byte for byte: see fixtures/SOURCES.md) and the shapes of the other
 * cities' exports issue 28 names (San Francisco, Philadelphia, NYPD arrests and shootings), their
 * headers as published and rows written as those portals write them. Each goes through
 * inspectImport (the proposal and how sure it is of each field) and previewMapped as proposed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import type { ImportInspection } from '../../../src-shared/importMappingCalls';
import { openTestEngine, type TestEngine } from '../export/exportTesting';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);

async function inspect(name: string, bytes: Buffer | string): Promise<ImportInspection> {
  const path = t.file(name, '');
  writeFileSync(path, bytes);
  return call<ImportInspection>('inspectImport', { source: { path } });
}
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name));
const asProposed = (ins: ImportInspection) =>
  call<ImportPreview>('previewMapped', { fileId: ins.fileId, mapping: ins.proposal });
/** Each field's certainty as `field: level`. */
const levels = (ins: ImportInspection) =>
  Object.fromEntries((ins.certainty ?? []).map((c) => [c.field, c.level]));
const note = (ins: ImportInspection, field: string) =>
  ins.certainty?.find((c) => c.field === field)?.note ?? '';

describe('the shared real exports', () => {
  it('Chicago: the case number (unique here), Primary Type (not IUCR, FBI Code or Description), the occurrence Date over Updated On, lat/lon, Block, beat/district/ward kept first', async () => {
    const ins = await inspect(
      'Crimes_-_2001_to_present.csv',
      fixture('chicago-crimes-2016-01-03.head300.csv'),
    );
    expect(ins.proposal).toEqual({
      name: 'Crimes_-_2001_to_present',
      id: 'Case Number',
      type: 'Primary Type',
      // The vocabulary's type map: Primary Type's categories onto the standard types; NARCOTICS,
      // DECEPTIVE PRACTICE, OTHER OFFENSE, CRIM SEXUAL ASSAULT… stay Chicago's own.
      typeMap: {
        ASSAULT: 'Assault',
        BATTERY: 'Assault',
        BURGLARY: 'Burglary',
        'CRIMINAL DAMAGE': 'Vandalism',
        'MOTOR VEHICLE THEFT': 'Theft',
        ROBBERY: 'Robbery',
        THEFT: 'Theft',
      },
      address: 'Block',
      description: 'Description',
      date: 'Date',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
      keep: [
        'Beat',
        'District',
        'Ward',
        'Community Area',
        'ID',
        'IUCR',
        'Location Description',
        'Arrest',
        'Domestic',
        'FBI Code',
        'Year',
        'Updated On',
        'Location',
      ],
    });
    expect(levels(ins)).toEqual({
      id: 'sure',
      type: 'sure',
      address: 'sure',
      date: 'sure',
      location: 'sure',
    });
    const pv = await asProposed(ins);
    // The rows without coordinates are the only ones refused (item 4 places them).
    const unplaced = fixture('chicago-crimes-2016-01-03.head300.csv')
      .toString()
      .split('\n')
      .slice(1)
      .filter((l) => l !== '' && l.split(',')[19] === '').length;
    expect(unplaced).toBeGreaterThan(0);
    expect(pv).toMatchObject({ rows: 300, valid: 300 - unplaced, duplicatesInFile: 0 });
    expect(pv.sample[0]).toMatchObject({
      type: 'Assault',
      subtype: 'BATTERY',
      occurredLocal: '2016-01-03T23:57',
    });
  });

  it('Seattle (a file of robberies): the Offense ID (the Report Number repeats), Offense though it has one value, the offence start, precinct/sector/beat/MCPP kept first', async () => {
    const ins = await inspect('SPD_Crime_Data.csv', fixture('seattle-spd-robbery.head200.csv'));
    expect(ins.proposal).toEqual({
      name: 'SPD_Crime_Data',
      id: 'Offense ID',
      type: 'Offense',
      address: '100 Block Address',
      date: 'Offense Start DateTime',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
      keep: [
        'Precinct',
        'Sector',
        'Beat',
        'MCPP',
        'Report Number',
        'Offense End DateTime',
        'Report DateTime',
        'Group A B',
        'Crime Against Category',
        'Offense Parent Group',
        'Offense Code',
      ],
    });
    // One value in every row: still the type by its name, but a guess, and the page opens on it.
    expect(levels(ins)).toEqual({
      id: 'sure',
      type: 'guess',
      address: 'sure',
      date: 'sure',
      location: 'sure',
    });
    expect(note(ins, 'type')).toMatch(/^Offense is named as the type, though every row has the same value/);
    const pv = await asProposed(ins);
    expect(pv).toMatchObject({ rows: 202, duplicatesInFile: 0 });
    expect(pv.valid).toBeGreaterThanOrEqual(195);
    // Robbery is already the standard type's name: the proposal needs no type map.
    expect(ins.proposal.typeMap).toBeUndefined();
    expect(pv.sample[0]).toMatchObject({ type: 'Robbery', occurredLocal: '2020-02-02T20:30' });
  });

  it('Charlottesville: only report times — the UTC DateReported is taken and the proposal says so; BlockNumber before StreetName; no coordinates', async () => {
    const ins = await inspect('Crime_Data.csv', fixture('charlottesville-crime.head300.csv'));
    expect(ins.proposal).toEqual({
      name: 'Crime_Data',
      id: 'IncidentID',
      type: 'Offense',
      // Charlottesville's Larceny and Assault wordings, its robberies and shots fired; calls for
      // service (Hit and Run, Assist Citizen…) and the rest stay its own categories.
      typeMap: {
        'Assault Aggravated': 'Assault',
        'Assault Intimidation': 'Assault',
        'Assault Simple': 'Assault',
        'Larceny - All Other': 'Theft',
        'Larceny - From Motor Vehicle': 'Theft',
        'Larceny - Of Veh Parts/Access': 'Theft',
        'Larceny - Pocket Picking': 'Theft',
        'Larceny - Shoplifitng': 'Theft',
        'Larceny - Theft from Building': 'Theft',
        'Motor Vehicle Theft': 'Theft',
        'Robbery - Armed': 'Robbery',
        'Shots Fired/Illegal Hunting': 'Shooting',
        'Unauthorized Use of Motor Veh': 'Theft',
      },
      address: 'StreetName',
      block: 'BlockNumber',
      date: 'DateReported',
      // No coordinate columns but an address: the rows import as unplaced, as proposed.
      location: { kind: 'none' },
      keep: ['RecordID', 'Agency', 'HourReported', 'ReportingOfficer'],
    });
    expect(levels(ins)).toEqual({
      id: 'sure',
      type: 'sure',
      address: 'sure',
      date: 'guess',
      location: 'guess',
    });
    expect(note(ins, 'date')).toBe(
      'This file holds no time of occurrence: DateReported, when it was reported or dispatched, is taken instead. ' +
        'Its times carry a UTC offset: each is read as that instant, shown in the incident’s zone. Also kept: HourReported.',
    );
    expect(note(ins, 'location')).toBe(
      'No coordinates: no latitude and longitude, X/Y or point column. ' +
        "The rows import as unplaced and are placed from StreetName where the archive's blocks or a reference file allow.",
    );
  });

  it('Charlottesville imports as proposed: every row unplaced, then placed where the archive’s blocks allow', async () => {
    // The archive knows three blocks (an earlier import with coordinates): 200 and 600 E Market St, 800 W Main St.
    const known = await inspect(
      'known.csv',
      [
        'Case,Offense,Date,Address,Latitude,Longitude',
        'K1,Theft,2022-09-01 10:00,200 E MARKET ST,38.0305,-78.479',
        'K2,Theft,2022-09-02 10:00,600 E MARKET ST,38.03,-78.475',
        'K3,Theft,2022-09-03 10:00,800 W MAIN ST,38.0335,-78.4925',
      ].join('\n'),
    );
    const seeded = await call<ImportResult>('runImport', { importId: (await asProposed(known)).importId });
    expect(seeded.inserted).toBe(3);

    const ins = await inspect('Crime_Data.csv', fixture('charlottesville-crime.head300.csv'));
    const pv = await asProposed(ins);
    expect(pv).toMatchObject({ rows: 300, errorCount: 0, unplaced: { rows: 300 } });
    expect(pv.unplaced?.listed[0]).toMatchObject({
      row: 1,
      address: '800 ELLIOTT AVE',
      reason: 'no coordinates (the file has no location columns)',
    });
    const run = await call<ImportResult>('runImport', { importId: pv.importId, place: true });
    expect(run).toMatchObject({ inserted: 0, unplaced: 300 });
    const placed = t.db
      .prepare(
        `SELECT i.address, p.method FROM incidents i JOIN incident_placements p USING (cdid) ORDER BY i.address`,
      )
      .all() as { address: string; method: string }[];
    expect(placed.length).toBe(run.placed);
    // The known blocks' rows are placed on them; no row of a street the archive does not know is
    // (W and E Market St are one line, numbered outward from its baseline).
    const byAddress = (a: string) => placed.filter((r) => r.address === a).map((r) => r.method);
    expect(byAddress('200 E MARKET ST')).toEqual(Array(4).fill('block'));
    expect(byAddress('600 E MARKET ST')).toEqual(Array(4).fill('block'));
    expect(byAddress('800 W MAIN ST')).toEqual(Array(4).fill('block'));
    expect(placed.filter((r) => !/\b([EW] MARKET|W MAIN) ST\b/.test(r.address))).toEqual([]);
    expect(t.db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get()).toBe(300 - placed.length);
  });
});

describe('other cities’ exports (issue 28)', () => {
  it('San Francisco: Row ID (the incident number repeats), Incident Category (not its subcategory, description or code), Incident Datetime with no time column', async () => {
    const head =
      'Incident Datetime,Incident Date,Incident Time,Incident Year,Incident Day of Week,Report Datetime,Row ID,Incident ID,Incident Number,CAD Number,Report Type Code,Report Type Description,Filed Online,Incident Code,Incident Category,Incident Subcategory,Incident Description,Resolution,Intersection,CNN,Police District,Analysis Neighborhood,Supervisor District,Latitude,Longitude,Point';
    const rows = [
      '2018/12/01 12:25:00 AM,2018/12/01,00:25,2018,Saturday,2018/12/01 02:10:00 AM,75423706244,754237,181234567,183350164,II,Initial,,06244,Larceny Theft,Larceny - From Vehicle,"Theft, From Locked Vehicle, >$950",Open or Active,MARKET ST \\ 5TH ST,24925000,Southern,Financial District/South Beach,6,37.7841,-122.4075,POINT (-122.4075 37.7841)',
      '2018/12/01 12:25:00 AM,2018/12/01,00:25,2018,Saturday,2018/12/01 02:10:00 AM,75423706372,754237,181234567,183350164,II,Initial,,06372,Larceny Theft,Larceny Theft - Other,"Theft, Other Property, $50-$200",Open or Active,MARKET ST \\ 5TH ST,24925000,Southern,Financial District/South Beach,6,37.7841,-122.4075,POINT (-122.4075 37.7841)',
      '2018/12/01 01:40:00 PM,2018/12/01,13:40,2018,Saturday,2018/12/01 03:00:00 PM,75424104134,754241,181234568,,VI,Vehicle Initial,,04134,Assault,Simple Assault,Battery,Cite or Arrest Adult,MISSION ST \\ 16TH ST,23859000,Mission,Mission,9,37.765,-122.4196,POINT (-122.4196 37.765)',
      '2018/12/02 09:05:00 PM,2018/12/02,21:05,2018,Sunday,2018/12/03 08:15:00 AM,75430307021,754303,181234580,183360200,II,Initial,true,07021,Motor Vehicle Theft,Motor Vehicle Theft,"Vehicle, Stolen, Auto",Open or Active,OAK ST \\ DIVISADERO ST,26162000,Park,Haight Ashbury,5,37.7729,-122.4378,POINT (-122.4378 37.7729)',
      '2018/12/03 10:00:00 AM,2018/12/03,10:00,2018,Monday,2018/12/03 11:20:00 AM,75431505041,754315,181234590,183370100,II,Initial,,05041,Burglary,Burglary - Residential,"Burglary, Residence, Forcible Entry",Open or Active,24TH ST \\ MISSION ST,23928000,Mission,Mission,9,37.7524,-122.4184,POINT (-122.4184 37.7524)',
    ];
    const ins = await inspect(
      'Police_Department_Incident_Reports_2018_to_Present.csv',
      [head, ...rows].join('\n'),
    );
    expect(ins.proposal).toMatchObject({
      id: 'Row ID',
      type: 'Incident Category',
      date: 'Incident Datetime',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
      address: 'Intersection',
    });
    expect(ins.proposal.time).toBeUndefined();
    expect(ins.proposal.keep?.slice(0, 3)).toEqual([
      'Police District',
      'Analysis Neighborhood',
      'Supervisor District',
    ]);
    expect(levels(ins)).toMatchObject({ id: 'sure', type: 'sure', date: 'sure', location: 'sure' });
    // Larceny Theft is Theft, not a type apart (the issue: 3,532 incidents kept from Theft).
    expect(ins.proposal.typeMap).toEqual({ 'Larceny Theft': 'Theft', 'Motor Vehicle Theft': 'Theft' });
    const pv = await asProposed(ins);
    expect(pv).toMatchObject({ rows: 5, valid: 5, errorCount: 0, duplicatesInFile: 0 });
    expect(pv.sample.map((s) => [s.type, s.subtype, s.occurredLocal])).toEqual([
      ['Theft', 'Larceny Theft', '2018-12-01T00:25'],
      ['Theft', 'Larceny Theft', '2018-12-01T00:25'],
      ['Assault', 'Assault', '2018-12-01T13:40'],
      ['Theft', 'Motor Vehicle Theft', '2018-12-02T21:05'],
      ['Burglary', 'Burglary', '2018-12-03T10:00'],
    ]);
  });

  it('Philadelphia: text_general_code holds the offence (by its content: a guess), the dispatch time taken and said, location_block, the hex EWKB the_geom read as a point', async () => {
    const head =
      'the_geom,cartodb_id,the_geom_webmercator,objectid,dc_dist,psa,dispatch_date_time,dispatch_date,dispatch_time,hour_,dc_key,location_block,ucr_general,text_general_code,point_x,point_y,lat,lng';
    const ewkb = (lon: number, lat: number) => {
      const b = Buffer.alloc(25);
      b.writeUInt8(1, 0);
      b.writeUInt32LE(0x20000001, 1);
      b.writeUInt32LE(4326, 5);
      b.writeDoubleLE(lon, 9);
      b.writeDoubleLE(lat, 17);
      return b.toString('hex').toUpperCase();
    };
    const data: [string, string, string, number, number][] = [
      ['600', 'Thefts', '2022-05-01 14:05:00', -75.16, 39.95],
      ['800', 'Other Assaults', '2022-05-01 15:30:00', -75.17, 39.96],
      ['600', 'Theft from Vehicle', '2022-05-02 09:10:00', -75.15, 39.94],
      ['1400', 'Vandalism/Criminal Mischief', '2022-05-02 22:45:00', -75.2, 39.99],
      ['700', 'Motor Vehicle Theft', '2022-05-03 01:15:00', -75.14, 40.0],
      ['2600', 'All Other Offenses', '2022-05-03 11:00:00', -75.18, 39.97],
    ];
    const rows = data.map(
      ([ucr, text, when, lon, lat], k) =>
        `${ewkb(lon, lat)},${k + 1},0101000020110F0000AAAA,${9000 + k},18,3,${when},${when.slice(0, 10)},${when.slice(11)},${when.slice(11, 13)},2022180${k}1234,${k + 1}00 BLOCK S 52ND ST,${ucr},${text},${lon},${lat},${lat},${lon}`,
    );
    const ins = await inspect('incidents_part1_part2.csv', [head, ...rows].join('\n'));
    expect(ins.proposal).toMatchObject({
      id: 'dc_key',
      type: 'text_general_code',
      date: 'dispatch_date_time',
      address: 'location_block',
      location: { kind: 'latlon', lat: 'lat', lon: 'lng' },
    });
    expect(ins.proposal.time).toBeUndefined();
    expect(ins.proposal.keep?.slice(0, 2)).toEqual(['dc_dist', 'psa']);
    expect(levels(ins)).toMatchObject({ type: 'guess', date: 'guess', location: 'sure' });
    expect(note(ins, 'type')).toMatch(/^text_general_code holds offence words \(chosen by its content/);
    expect(note(ins, 'date')).toMatch(/^This file holds no time of occurrence: dispatch_date_time/);
    expect(ins.proposal.typeMap).toEqual({
      Thefts: 'Theft',
      'Other Assaults': 'Assault',
      'Theft from Vehicle': 'Theft',
      'Vandalism/Criminal Mischief': 'Vandalism',
      'Motor Vehicle Theft': 'Theft',
    });
    const pv = await asProposed(ins);
    expect(pv).toMatchObject({ rows: 6, valid: 6, errorCount: 0 });
    expect(pv.sample.map((s) => s.type)).toEqual([
      'Theft',
      'Assault',
      'Theft',
      'Vandalism',
      'Theft',
      'All Other Offenses',
    ]);
    // Without lat/lng, the EWKB column alone is proposed as the point, and reads the same place.
    const geomOnly = await inspect(
      'geom.csv',
      [
        'the_geom,dc_key,dispatch_date_time,text_general_code',
        ...data.map(([, text, when, lon, lat], k) => `${ewkb(lon, lat)},K${k},${when},${text}`),
      ].join('\n'),
    );
    expect(geomOnly.proposal.location).toEqual({ kind: 'latlon', lat: 'the_geom', lon: 'the_geom' });
    const g = await asProposed(geomOnly);
    expect(g).toMatchObject({ valid: 6, errorCount: 0 });
    expect([g.sample[0]?.lat, g.sample[0]?.lon]).toEqual([39.95, -75.16]);
  });

  it('NYPD arrests: ARREST_KEY, OFNS_DESC (not PD_DESC, a finer description, nor the codes), ARREST_DATE, the precinct kept first', async () => {
    const head =
      'ARREST_KEY,ARREST_DATE,PD_CD,PD_DESC,KY_CD,OFNS_DESC,LAW_CODE,LAW_CAT_CD,ARREST_BORO,ARREST_PRECINCT,JURISDICTION_CODE,AGE_GROUP,PERP_SEX,PERP_RACE,X_COORD_CD,Y_COORD_CD,Latitude,Longitude,New Georeferenced Column';
    const rows = [
      '238013474,12/18/2021,105,STRANGULATION 1ST,106,FELONY ASSAULT,PL 1211200,F,Q,105,0,25-44,M,BLACK,1061593,207503,40.72,-73.73,POINT (-73.73 40.72)',
      '236943583,11/25/2021,101,ASSAULT 3,344,ASSAULT 3 & RELATED OFFENSES,PL 1200001,M,K,77,0,25-44,M,BLACK,1001622,185188,40.66,-73.95,POINT (-73.95 40.66)',
      '234938876,10/14/2021,339,"LARCENY,PETIT FROM OPEN AREAS,",341,PETIT LARCENY,PL 1552500,M,M,14,0,18-24,F,WHITE,987180,214033,40.74,-73.99,POINT (-73.99 40.74)',
      '234788259,10/11/2021,511,"CONTROLLED SUBSTANCE, POSSESSION 7",235,DANGEROUS DRUGS,PL 2200300,M,B,44,0,45-64,M,BLACK HISPANIC,1006521,244964,40.83,-73.92,POINT (-73.92 40.83)',
      '233950713,09/24/2021,109,"ASSAULT 2,1,UNCLASSIFIED",106,FELONY ASSAULT,PL 1200502,F,K,73,0,18-24,M,BLACK,1009553,183285,40.66,-73.91,POINT (-73.91 40.66)',
    ];
    const ins = await inspect('NYPD_Arrests_Data__Historic_.csv', [head, ...rows].join('\n'));
    expect(ins.proposal).toMatchObject({
      id: 'ARREST_KEY',
      type: 'OFNS_DESC',
      date: 'ARREST_DATE',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
    });
    expect(ins.proposal.keep?.slice(0, 2)).toEqual(['ARREST_BORO', 'ARREST_PRECINCT']);
    expect(levels(ins)).toMatchObject({ id: 'sure', type: 'sure', date: 'sure', location: 'sure' });
    const pv = await asProposed(ins);
    expect(pv).toMatchObject({ rows: 5, valid: 5, errorCount: 0 });
    expect(ins.proposal.typeMap).toEqual({
      'FELONY ASSAULT': 'Assault',
      'ASSAULT 3 & RELATED OFFENSES': 'Assault',
      'PETIT LARCENY': 'Theft',
    });
    // OFNS_DESC is each arrest's subtype; DANGEROUS DRUGS, which no standard type holds, is its own type.
    expect(pv.sample.map((s) => [s.type, s.subtype])).toEqual([
      ['Assault', 'FELONY ASSAULT'],
      ['Assault', 'ASSAULT 3 & RELATED OFFENSES'],
      ['Theft', 'PETIT LARCENY'],
      ['DANGEROUS DRUGS', 'DANGEROUS DRUGS'],
      ['Assault', 'FELONY ASSAULT'],
    ]);
  });

  it('NYPD shootings: no type column — one type for every row (Shooting, from the file’s name, a guess); no id (INCIDENT_KEY is shared by its victims), OCCUR_DATE with OCCUR_TIME', async () => {
    const head =
      'INCIDENT_KEY,OCCUR_DATE,OCCUR_TIME,BORO,LOC_OF_OCCUR_DESC,PRECINCT,JURISDICTION_CODE,LOC_CLASSFCTN_DESC,LOCATION_DESC,STATISTICAL_MURDER_FLAG,PERP_AGE_GROUP,PERP_SEX,PERP_RACE,VIC_AGE_GROUP,VIC_SEX,VIC_RACE,X_COORD_CD,Y_COORD_CD,Latitude,Longitude,Lon_Lat';
    const rows = [
      '228798151,05/27/2021,21:30:00,QUEENS,,105,0,,,false,,,,18-24,M,BLACK,1058925,193085,40.66,-73.74,POINT (-73.74 40.66)',
      '137471050,06/27/2014,17:40:00,BRONX,,40,0,,,false,,,,18-24,M,BLACK,1005028,234516,40.81,-73.92,POINT (-73.92 40.81)',
      '137471050,06/27/2014,17:40:00,BRONX,,40,0,,,true,,,,25-44,M,BLACK,1005028,234516,40.81,-73.92,POINT (-73.92 40.81)',
      '147998800,11/21/2015,03:56:00,QUEENS,,108,0,,,true,,,,25-44,M,WHITE,1007668,209836.5,40.74,-73.92,POINT (-73.92 40.74)',
      '146837977,10/09/2015,18:30:00,BRONX,,44,0,,MULTI DWELL - PUBLIC HOUS,false,25-44,M,BLACK,<18,M,BLACK,1006537,244511,40.83,-73.92,POINT (-73.92 40.83)',
    ];
    const text = [head, ...rows].join('\n');
    // A name that says nothing: no type is proposed, and the page opens there.
    const plain = await inspect('export.csv', text);
    expect(plain.saved).toBeUndefined();
    expect(plain.proposal.type).toBeUndefined();
    expect(plain.proposal.constantType).toBeUndefined();
    expect(levels(plain).type).toBe('none');
    const ins = await inspect('NYPD_Shooting_Incident_Data__Historic_.csv', text);
    expect(ins.proposal.type).toBeUndefined();
    expect(ins.proposal).toMatchObject({
      constantType: 'Shooting',
      date: 'OCCUR_DATE',
      time: 'OCCUR_TIME',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
    });
    expect(ins.proposal.id).toBeUndefined();
    expect(ins.proposal.keep?.slice(0, 2)).toEqual(['BORO', 'PRECINCT']);
    expect(levels(ins)).toMatchObject({ id: 'sure', type: 'guess', date: 'sure', location: 'sure' });
    const pv = await asProposed(ins);
    // The two victims of 137471050 stay two records.
    expect(pv).toMatchObject({ rows: 5, valid: 5, errorCount: 0, duplicatesInFile: 0 });
    expect(pv.sample.map((s) => s.type)).toEqual([
      'Shooting',
      'Shooting',
      'Shooting',
      'Shooting',
      'Shooting',
    ]);
    const done = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'skip' });
    expect(done.inserted).toBe(5);
  });

  it('Austin and Baltimore: a description column is the type when it is the only offence text, never a category blank on most rows, nor codes', async () => {
    const austin = await inspect(
      'Crime_Reports.csv',
      [
        'Incident Number,Highest Offense Description,Highest Offense Code,Family Violence,Occurred Date Time,Occurred Date,Occurred Time,Report Date Time,Location Type,Address,Council District,APD Sector,APD District,UCR Category,Category Description,Clearance Status,Latitude,Longitude',
        '20235012345,BURGLARY OF VEHICLE,601,N,01/02/2023 11:30:00 PM,01/02/2023,2330,01/03/2023 08:00:00 AM,PARKING LOTS / GARAGE,1200 E 6TH ST,3,CH,2,23F,Theft,N,30.264,-97.728',
        '20235012346,FAMILY DISTURBANCE,3400,Y,01/03/2023 01:10:00 AM,01/03/2023,110,01/03/2023 01:15:00 AM,RESIDENCE / HOME,4500 N LAMAR BLVD,9,BA,4,,,,30.31,-97.74',
        '20235012347,HARASSMENT,2703,N,01/03/2023 09:00:00 AM,01/03/2023,900,01/03/2023 10:00:00 AM,RESIDENCE / HOME,800 W 24TH ST,9,BA,1,,,,30.288,-97.746',
        '20235012348,CRIMINAL MISCHIEF,1400,N,01/03/2023 02:00:00 PM,01/03/2023,1400,01/03/2023 03:00:00 PM,STREETS / HWY / ROAD / ALLEY,2100 S CONGRESS AVE,9,DA,3,,,,30.245,-97.75',
        '20235012349,AUTO THEFT,700,N,01/04/2023 06:00:00 AM,01/04/2023,600,01/04/2023 07:00:00 AM,PARKING LOTS / GARAGE,3000 GUADALUPE ST,9,BA,2,240,Auto Theft,N,30.296,-97.741',
      ].join('\n'),
    );
    expect(austin.proposal).toMatchObject({
      id: 'Incident Number',
      type: 'Highest Offense Description',
      date: 'Occurred Date Time',
      address: 'Address',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
    });
    expect(austin.proposal.time).toBeUndefined();
    expect(levels(austin).type).toBe('guess');
    expect(austin.proposal.typeMap).toEqual({
      'BURGLARY OF VEHICLE': 'Burglary',
      'CRIMINAL MISCHIEF': 'Vandalism',
      'AUTO THEFT': 'Theft',
    });
    const a = await asProposed(austin);
    expect(a).toMatchObject({ rows: 5, valid: 5, errorCount: 0 });
    const baltimore = await inspect(
      'Part1_Crime_data.csv',
      [
        'CrimeDateTime,CrimeCode,Location,Description,Inside_Outside,Weapon,Post,District,Neighborhood,Latitude,Longitude,Premise',
        '2022/01/01 00:15:00+00,4E,1500 N MONROE ST,COMMON ASSAULT,I,NA,721,WESTERN,SANDTOWN-WINCHESTER,39.3057,-76.6466,ROW/TOWNHOUSE-OCC',
        '2022/01/01 01:30:00+00,6D,300 E PRATT ST,LARCENY FROM AUTO,O,NA,111,CENTRAL,INNER HARBOR,39.2868,-76.6116,STREET',
        '2022/01/01 03:00:00+00,5A,2500 E MONUMENT ST,BURGLARY,I,NA,322,EASTERN,MCELDERRY PARK,39.2987,-76.5829,ROW/TOWNHOUSE-OCC',
        '2022/01/01 04:45:00+00,3B,700 W BALTIMORE ST,ROBBERY - STREET,O,FIREARM,123,CENTRAL,POPPLETON,39.2891,-76.6295,STREET',
        '2022/01/01 06:20:00+00,7A,4200 PARK HEIGHTS AVE,AUTO THEFT,O,NA,612,NORTHWESTERN,PARK CIRCLE,39.3307,-76.6698,STREET',
      ].join('\n'),
    );
    expect(baltimore.proposal).toMatchObject({
      type: 'Description',
      date: 'CrimeDateTime',
      address: 'Location',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
    });
    expect(baltimore.proposal.keep?.slice(0, 3)).toEqual(['Post', 'District', 'Neighborhood']);
    expect(note(baltimore, 'date')).toMatch(/Its times carry a UTC offset/);
    const b = await asProposed(baltimore);
    expect(b).toMatchObject({ rows: 5, valid: 5, errorCount: 0 });
    // 00:15 UTC on New Year's Day is 19:15 the evening before in Baltimore.
    expect(b.sample[0]).toMatchObject({
      type: 'Assault',
      subtype: 'COMMON ASSAULT',
      occurredLocal: '2021-12-31T19:15',
    });
  });

  it('a mapping gives the type column or one type for every row, not both and not neither', async () => {
    const ins = await inspect(
      'x.csv',
      'Case,Offense,Date,Latitude,Longitude\nA1,THEFT,2025-05-10 13:30,41.88,-87.63\n',
    );
    const base = { ...ins.proposal, name: 'x' };
    const both = call('previewMapped', { fileId: ins.fileId, mapping: { ...base, constantType: 'Arrest' } });
    await expect(both).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/not both/),
    });
    const { type: _type, ...none } = base;
    await expect(call('previewMapped', { fileId: ins.fileId, mapping: none })).rejects.toMatchObject({
      code: 'bad_input',
    });
    const constant = await call<ImportPreview>('previewMapped', {
      fileId: ins.fileId,
      mapping: { ...none, constantType: 'Arrest' },
    });
    expect(constant.sample[0]?.type).toBe('Arrest');
  });
});
