/**
 * Files shaped like the exports analysts are handed — written the way records systems, CAD
 * systems, ArcGIS and Excel write them, not the way our other tests do: a byte-order mark and CRLF,
 * a trailing comma on every line (a blank last column), narratives with quoted line breaks, times
 * whose leading zero a spreadsheet dropped (930), blank and 0/0 coordinates for rows the system
 * could not place, separate Call Date / Call Time columns, rows Excel ended early, ArcGIS's
 * OBJECTID and POINT_X / POINT_Y, a city portal's OpenDataX / OpenDataY in international feet,
 * latitude and longitude columns swapped, Excel serials at 23:59:59 and two-digit years. Each goes
 * through inspectImport (the proposal the user starts from), previewMapped and runImport, and is
 * checked as a user would: what was proposed, counts, rows named with their column and what was
 * expected, nothing written before the run, coordinates against cs2cs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import { milesBetween } from '../../../src-shared/geo';
import type { ImportInspection } from '../../../src-shared/importMappingCalls';
import { openTestEngine, type TestEngine } from '../export/exportTesting';
import { namespacedId } from './mapping/apply';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);
const count = () => t.db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
const stored = (cdid: number) =>
  t.db.prepare('SELECT * FROM incidents WHERE cdid = ?').get(cdid) as Record<string, unknown> | undefined;

/** Writes the bytes as given (a BOM, CRLF, any encoding) and inspects the file. */
async function inspect(name: string, bytes: Buffer | string): Promise<ImportInspection> {
  const path = t.file(name, '');
  writeFileSync(path, bytes);
  return call<ImportInspection>('inspectImport', { source: { path } });
}
const mapped = (ins: ImportInspection, name: string, over: Record<string, unknown> = {}) =>
  call<ImportPreview>('previewMapped', { fileId: ins.fileId, mapping: { ...ins.proposal, name, ...over } });

/** lon/lat → X/Y in EPSG:epsg by PROJ's own cs2cs (Debian proj-bin). */
function forward(epsg: number, lat: number, lon: number): [number, number] {
  const out = execFileSync('cs2cs', ['-f', '%.4f', 'EPSG:4269', `EPSG:${epsg}`], {
    input: `${lat} ${lon}\n`,
  }).toString();
  const [x, y] = out.trim().split(/\s+/).map(Number) as [number, number];
  return [x, y];
}
const metres = (row: Record<string, unknown> | undefined, lat: number, lon: number) =>
  milesBetween(row?.lat as number, row?.lon as number, lat, lon) * 1609.344;

describe('a records-system export as it comes out of the system', () => {
  // Dallas, Texas North Central State Plane in US survey feet (EPSG:2276).
  const [x1, y1] = forward(2276, 32.7767, -96.797);
  const [x2, y2] = forward(2276, 32.78, -96.8);
  const RMS = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(
      [
        'Incident Number,Offense,Block Address,Date Reported,Time Reported,X Coordinate,Y Coordinate,Narrative,',
        `25-000123,THEFT,1200 BLK MAIN ST,05/10/2025,1430,${x1},${y1},"Suspect took a bike.\r\nFled on foot, ""quickly"".",`,
        `25-000124,ASSAULT,400 BLK ELM ST,05/11/2025,930,${x2},${y2},,`,
        '25-000125,THEFT,99 BLK OAK LN,05/12/2025,0005,,,"Not geocoded",',
        '25-000126,THEFT,1 BLK NOWHERE,05/13/2025,2359,0,0,,',
      ].join('\r\n') + '\r\n',
    ),
  ]);

  it('is proposed whole (the blank last column neither mapped nor kept, 930 read as a time), previewed with the unplaced rows named, and imported on confirm', async () => {
    const ins = await inspect('rms.csv', RMS);
    expect(ins.columns.at(-1)).toBe('');
    expect(ins.proposal).toMatchObject({
      id: 'Incident Number',
      type: 'Offense',
      address: 'Block Address',
      date: 'Date Reported',
      time: 'Time Reported',
      description: 'Narrative',
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
      keep: [],
    });
    const pv = await mapped(ins, 'Dallas RMS');
    // Rows with a block address but no place are kept as unplaced (issue 28), not refused.
    expect([pv.rows, pv.valid, pv.errorCount]).toEqual([4, 2, 0]);
    expect(pv.unplaced?.listed).toEqual([
      { row: 3, address: '99 BLK OAK LN', reason: 'no coordinates (X Coordinate, Y Coordinate blank)' },
      { row: 4, address: '1 BLK NOWHERE', reason: 'no coordinates (X Coordinate, Y Coordinate are 0, 0)' },
    ]);
    expect(count()).toBe(0);
    const run = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'skip' });
    expect(run.inserted).toBe(2);
    const a = stored(namespacedId('Dallas RMS', '25-000123'));
    expect(a).toMatchObject({
      occurred_local: '2025-05-10T14:30',
      description: 'Suspect took a bike.\r\nFled on foot, "quickly".',
    });
    expect(metres(a, 32.7767, -96.797)).toBeLessThan(1);
    const b = stored(namespacedId('Dallas RMS', '25-000124'));
    expect(b).toMatchObject({ occurred_local: '2025-05-11T09:30' });
    expect(metres(b, 32.78, -96.8)).toBeLessThan(1);
  });

  it('X/Y read in the wrong unit (feet as metres) are refused per row, naming the zone and where they landed', async () => {
    const ins = await inspect('rms.csv', RMS);
    // Texas North Central in metres (EPSG:32138): the same numbers land ~3.3 times farther out.
    const pv = await mapped(ins, 'Dallas RMS', {
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 32138 },
    });
    expect(pv.valid).toBe(0);
    expect(pv.errors[0]).toEqual({
      row: 1,
      field: 'X Coordinate',
      message: expect.stringMatching(
        /X Coordinate: expected X\/Y inside NAD83 \/ Texas North Central's area .*check the zone and its unit.*reads as/,
      ),
    });
  });
});

describe('a dispatch (CAD) export', () => {
  it('pairs Call Time with Call Date, takes the call number as the id, and reads rows Excel ended early', async () => {
    const ins = await inspect(
      'cad.csv',
      [
        'Call Number,Call Type,Priority,Incident Address,Call Date,Call Time,Dispatch Time,Latitude,Longitude,Disposition,Officer Notes',
        '2025-00001,DISTURBANCE,2,100 N MAIN ST,2025-05-10,14:30:15,14:33:00,32.7767,-96.797,REPORT,loud music',
        // Excel leaves off a row's empty last cells.
        '2025-00002,SUSPICIOUS PERSON,3,200 N MAIN ST,2025-05-10,23:59:59,00:05:00,32.78,-96.8',
        '2025-00003,ALARM,3,300 N MAIN ST,2025-05-11,00:00:30,00:09:00,32.78,-96.8,GOA',
      ].join('\n'),
    );
    expect(ins.proposal).toMatchObject({
      id: 'Call Number',
      type: 'Call Type',
      address: 'Incident Address',
      date: 'Call Date',
      time: 'Call Time',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
      keep: ['Priority', 'Dispatch Time', 'Disposition', 'Officer Notes'],
    });
    const pv = await mapped(ins, 'County CAD');
    expect([pv.rows, pv.valid, pv.errorCount]).toEqual([3, 3, 0]);
    await call('runImport', { importId: pv.importId });
    expect(stored(namespacedId('County CAD', '2025-00002'))).toMatchObject({
      type: 'SUSPICIOUS PERSON',
      occurred_local: '2025-05-10T23:59',
    });
  });

  it('refuses a row whose fields pass the header with text (columns slipped), naming the row', async () => {
    const ins = await inspect(
      'cad.csv',
      [
        'Call Number,Call Type,Incident Address,Call Date,Call Time,Latitude,Longitude',
        '1,ALARM,300 N MAIN ST,2025-05-11,0930,32.78,-96.8',
        '2,ALARM,300 N MAIN ST, APT 4,2025-05-11,0930,32.78,-96.8',
      ].join('\n'),
    );
    const pv = await mapped(ins, 'County CAD');
    expect(pv.errors).toEqual([{ row: 2, field: null, message: 'This row has 8 fields; the header has 7.' }]);
  });
});

describe('GIS and open-data shapes', () => {
  it('ArcGIS’s table export: the incident number over OBJECTID, REPORT_TIME paired with REPORT_DATE, POINT_X / POINT_Y in degrees', async () => {
    const ins = await inspect(
      'arcgis.csv',
      [
        'OBJECTID,INCIDENT_NUM,OFFENSE_TYPE,BLOCK_ADDRESS,REPORT_DATE,REPORT_TIME,POINT_X,POINT_Y',
        '1,I-1,Theft,1 A ST,2025-05-10,14:30:00,-96.7970,32.7767',
        '2,I-2,Theft,1 A ST,2025-05-11 00:00:00,09:05:00,-96.7970,32.7767',
      ].join('\r\n'),
    );
    expect(ins.proposal).toMatchObject({
      id: 'INCIDENT_NUM',
      date: 'REPORT_DATE',
      time: 'REPORT_TIME',
      location: { kind: 'latlon', lat: 'POINT_Y', lon: 'POINT_X' },
      keep: ['OBJECTID'],
    });
    const pv = await mapped(ins, 'arcgis');
    expect(pv.sample.map((s) => s.occurredLocal)).toEqual(['2025-05-10T14:30', '2025-05-11T09:05']);
  });

  it('a city portal’s OpenDataX / OpenDataY in Oregon North international feet: the pair and the zone proposed, the point within 1 m of cs2cs', async () => {
    const [x, y] = forward(2269, 45.5152, -122.6784);
    const ins = await inspect(
      'portland.csv',
      [
        'CaseNumber,OffenseType,Address,ReportDate,OpenDataX,OpenDataY',
        `P1,Burglary,1 SW MAIN,2025-05-10T14:30:00,${x},${y}`,
      ].join('\n'),
    );
    expect(ins.proposal).toMatchObject({
      id: 'CaseNumber',
      type: 'OffenseType',
      date: 'ReportDate',
      location: { kind: 'xy', x: 'OpenDataX', y: 'OpenDataY', epsg: 2269 },
    });
    const pv = await mapped(ins, 'PPB');
    await call('runImport', { importId: pv.importId });
    const row = stored(namespacedId('PPB', 'P1'));
    expect(row).toMatchObject({ occurred_local: '2025-05-10T14:30', timezone: 'America/Los_Angeles' });
    expect(metres(row, 45.5152, -122.6784)).toBeLessThan(1);
  });

  it('Latitude and Longitude columns holding each other’s values are proposed swapped (a latitude below −60° is a longitude)', async () => {
    const ins = await inspect(
      'swapped.csv',
      [
        'Incident ID,Type,Address,Date,Latitude,Longitude',
        'S1,Theft,1 A ST,2025-05-10 14:30,-87.6298,41.8781',
      ].join('\n'),
    );
    expect(ins.proposal.location).toEqual({ kind: 'latlon', lat: 'Longitude', lon: 'Latitude' });
    const pv = await mapped(ins, 'swapped');
    expect(pv.sample[0]).toMatchObject({ lat: 41.8781, lon: -87.6298, timezone: 'America/Chicago' });
  });

  it('lat/lon of 0, 0 is a row not placed, named by its column', async () => {
    const ins = await inspect(
      'la.csv',
      [
        'DR_NO,Date Rptd,DATE OCC,TIME OCC,Crm Cd Desc,LOCATION,LAT,LON',
        '250100001,05/11/2025 12:00:00 AM,05/10/2025 12:00:00 AM,1430,VEHICLE - STOLEN,100 W 1ST ST,34.05,-118.24',
        '250100002,05/11/2025 12:00:00 AM,05/10/2025 12:00:00 AM,930,VEHICLE - STOLEN,100 W 1ST ST,0,0',
      ].join('\n'),
    );
    // The occurrence's date and its time, not the reported date.
    expect(ins.proposal).toMatchObject({
      id: 'DR_NO',
      type: 'Crm Cd Desc',
      date: 'DATE OCC',
      time: 'TIME OCC',
    });
    const pv = await mapped(ins, 'LAPD');
    expect(pv.sample[0]?.occurredLocal).toBe('2025-05-10T14:30');
    // 0, 0 is how records systems write a row they could not place: with its address, it waits as unplaced.
    expect(pv.errors).toEqual([]);
    expect(pv.unplaced?.listed).toEqual([
      { row: 2, address: '100 W 1ST ST', reason: 'no coordinates (LAT, LON are 0, 0)' },
    ]);
  });
});

describe('dates as spreadsheets leave them', () => {
  it('an Excel serial at 23:59:59 is 23:59 that day; a two-digit year past next year is last century’s; a future date is named by its column', async () => {
    const ins = await inspect(
      'dates.csv',
      [
        'Report No,Crime Type,Address,Reported Date,Occurred Date,Latitude,Longitude',
        '1,THEFT,1 A ST,45789.999988426,05/10/25,32.7767,-96.797',
        '2,THEFT,2 A ST,45787.604166667,5/1/99,32.7767,-96.797',
        '3,THEFT,3 A ST,45787,12/31/49,32.7767,-96.797',
      ].join('\n'),
    );
    expect(ins.proposal.date).toBe('Occurred Date');
    const serial = await mapped(ins, 'excel', { date: 'Reported Date', keep: [] });
    expect(serial.sample.map((s) => s.occurredLocal)).toEqual([
      '2025-05-12T23:59',
      '2025-05-10T14:30',
      '2025-05-10T00:00',
    ]);
    const twoDigit = await mapped(ins, 'excel', { keep: [] });
    expect(twoDigit.sample.map((s) => s.occurredLocal.slice(0, 10))).toEqual([
      '2025-05-10',
      '1999-05-01',
      '1949-12-31',
    ]);
    const ahead = await inspect(
      'ahead.csv',
      ['Report No,Crime Type,Occurred Date,Latitude,Longitude', `1,THEFT,2099-01-01,32.7767,-96.797`].join(
        '\n',
      ),
    );
    const pv = await mapped(ahead, 'ahead');
    expect(pv.errors).toEqual([
      {
        row: 1,
        field: 'Occurred Date',
        message: expect.stringMatching(/^Occurred Date: the date is in the future/),
      },
    ]);
  });
});

describe('cells as a spreadsheet formats them', () => {
  it('reads X/Y with thousands separators and US dates written with dashes', async () => {
    const [x, y] = forward(2276, 32.7767, -96.797);
    const grouped = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
    const ins = await inspect(
      'excel.csv',
      [
        'Incident Number,Offense,Date Reported,X Coordinate,Y Coordinate',
        `X1,THEFT,05-10-2025 2:30 PM,"${grouped(x)}","${grouped(y)}"`,
        'X2,THEFT,5-11-2025,"1,234,5","6,969,751"',
      ].join('\r\n'),
    );
    const pv = await mapped(ins, 'excel', {
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
    });
    expect(pv.sample[0]?.occurredLocal).toBe('2025-05-10T14:30');
    expect(metres({ lat: pv.sample[0]?.lat, lon: pv.sample[0]?.lon }, 32.7767, -96.797)).toBeLessThan(1);
    // A comma that is not a thousands separator is not guessed at.
    expect(pv.errors).toEqual([
      {
        row: 2,
        field: 'X Coordinate',
        message: expect.stringMatching(/^X Coordinate: expected an X coordinate/),
      },
    ]);
  });
});

describe('a dispatch system’s compact stamps', () => {
  it('reads 20250510 with 143015 (HHMMSS), and 20250510143015 in one column', async () => {
    const ins = await inspect(
      'cad.txt',
      [
        'EVENT_NO|NATURE|ADDR|DATE_RCV|TIME_RCV|STAMP|LAT|LON',
        'E1|ALARM|1 A ST|20250510|143015|20250510143015|32.7767|-96.797',
        'E2|ALARM|2 A ST|20250511|000559|20250511000559|32.7767|-96.797',
      ].join('\r\n'),
    );
    expect(ins.proposal).toMatchObject({
      id: 'EVENT_NO',
      type: 'NATURE',
      date: 'DATE_RCV',
      time: 'TIME_RCV',
    });
    const split = await mapped(ins, 'cad');
    expect(split.sample.map((s) => s.occurredLocal)).toEqual(['2025-05-10T14:30', '2025-05-11T00:05']);
    const one = await mapped(ins, 'cad', { date: 'STAMP', time: undefined, keep: [] });
    expect(one.sample.map((s) => s.occurredLocal)).toEqual(['2025-05-10T14:30', '2025-05-11T00:05']);
  });
});

describe('files separated by tabs, semicolons or bars', () => {
  it('a tab-separated CAD export (quoted narratives holding tabs and line breaks) and a semicolon one are read by their columns', async () => {
    const tsv = [
      'Incident Number\tOffense\tBlock Address\tDate Reported\tTime Reported\tLatitude\tLongitude\tNarrative',
      'T1\tTHEFT\t1200 BLK MAIN ST, APT 2\t05/10/2025\t1430\t32.7767\t-96.797\t"Took a 5"" pipe;\tfled\r\nnorth"',
      'T2\tTHEFT\t1 A ST\t05/11/2025\t0930\t32.78\t-96.8\t',
    ].join('\r\n');
    const ins = await inspect('cad.tsv', tsv);
    expect(ins.columns).toHaveLength(8);
    expect(ins.proposal).toMatchObject({
      id: 'Incident Number',
      date: 'Date Reported',
      time: 'Time Reported',
      description: 'Narrative',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
    });
    const pv = await mapped(ins, 'tsv');
    expect([pv.rows, pv.valid, pv.errorCount]).toEqual([2, 2, 0]);
    await call('runImport', { importId: pv.importId });
    expect(stored(namespacedId('tsv', 'T1'))).toMatchObject({
      address: '1200 BLK MAIN ST, APT 2',
      occurred_local: '2025-05-10T14:30',
      description: 'Took a 5" pipe;\tfled\r\nnorth',
    });
    const semi = await inspect('eu.csv', tsv.replace(/\t/g, ';').replace('pipe;;fled', 'pipe, fled'));
    expect(semi.columns).toEqual(ins.columns);
    expect((await mapped(semi, 'semi')).valid).toBe(2);
  });

  it('the parallel preview of a large tab-separated file reads exactly as the one-thread preview', async () => {
    const lines = [
      'Call Number\tCall Type\tIncident Address\tCall Date\tCall Time\tLatitude\tLongitude\tNotes',
    ];
    for (let k = 1; k <= 3000; k++)
      lines.push(
        `C${k}\tALARM\t${k} N MAIN ST, APT ${k % 7}\t2025-05-${String(1 + (k % 28)).padStart(2, '0')}\t${k % 2400}\t32.7${k % 10}\t-96.8\t` +
          (k % 13 === 0 ? `"quoted\tnote\nover two lines"` : `plain note ${k}`),
      );
    const path = t.file('big.tsv', lines.join('\n'));
    const mapping = {
      name: 'big',
      id: 'Call Number',
      type: 'Call Type',
      address: 'Incident Address',
      date: 'Call Date',
      time: 'Call Time',
      location: { kind: 'latlon' as const, lat: 'Latitude', lon: 'Longitude' },
      description: 'Notes',
      keep: [],
    };
    const { Imports } = await import('./imports');
    const { ColumnMapping } = await import('../../../src-shared/importMapping');
    const m = ColumnMapping.parse(mapping);
    const ctx = (e: TestEngine) => ({
      db: e.db,
      dataDir: e.dir.path,
      emit: () => undefined,
      query: e.engine.context.services.query,
    });
    const strip = (p: ImportPreview) => ({ ...p, importId: undefined });
    const one = await new Imports(ctx(t)).preview({ path }, m);
    expect(one).toMatchObject({ rows: 3000 });
    expect(one.valid).toBeGreaterThan(1500);
    const other = openTestEngine();
    try {
      const many = await new Imports(ctx(other), Date.now, {
        parallelMinBytes: 0,
        threads: 2,
        chunkChars: 700,
        readBytes: 997,
      }).preview({ path }, m);
      expect(strip(many)).toEqual(strip(one));
      // The threads read it (no fall-back to the engine thread).
      const log = `${other.dir.path}/logs/blotter.log`;
      expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toMatch(/check threads failed/);
    } finally {
      other.close();
    }
  });
});

describe('a location as text in one column', () => {
  it('Socrata’s POINT (lon lat) and (lat, lon) columns are proposed as both coordinates and read; a bad or empty point is named', async () => {
    const ins = await inspect(
      'socrata.csv',
      [
        'Incident Number,Offense,Address,Date,Geocoded Column',
        'W1,Theft,1 A ST,05/10/2025 02:30:00 PM,POINT (-96.797 32.7767)',
        'W2,Theft,2 A ST,05/10/2025 02:30:00 PM,"(32.78, -96.8)"',
        'W3,Theft,3 A ST,05/10/2025 02:30:00 PM,',
        'W4,Theft,4 A ST,05/10/2025 02:30:00 PM,POINT EMPTY',
        'W5,Theft,5 A ST,05/10/2025 02:30:00 PM,POINT (-96.79 32.77)',
        'W6,Theft,6 A ST,05/10/2025 02:30:00 PM,POINT Z (-96.79 32.77 150.2)',
      ].join('\n'),
    );
    expect(ins.proposal.location).toEqual({ kind: 'latlon', lat: 'Geocoded Column', lon: 'Geocoded Column' });
    expect(ins.proposal.keep).toEqual([]);
    const pv = await mapped(ins, 'Dallas open data');
    expect(pv.sample.map((s) => [s.lat, s.lon, s.occurredLocal])).toEqual([
      [32.7767, -96.797, '2025-05-10T14:30'],
      [32.78, -96.8, '2025-05-10T14:30'],
      [32.77, -96.79, '2025-05-10T14:30'],
      [32.77, -96.79, '2025-05-10T14:30'],
    ]);
    // A blank point with an address waits as unplaced (issue 28); a point that cannot be read is bad.
    expect(pv.unplaced?.listed).toEqual([
      { row: 3, address: '3 A ST', reason: 'no coordinates (Geocoded Column blank)' },
    ]);
    expect(pv.errors).toEqual([
      { row: 4, field: 'Geocoded Column', message: expect.stringMatching(/expected a point such as POINT/) },
    ]);
  });

  it('a WKT point in State Plane feet is proposed as X/Y in the zone it fits, within 1 m of cs2cs', async () => {
    const [x, y] = forward(2276, 32.7767, -96.797);
    const ins = await inspect(
      'wkt.csv',
      ['Case,Offense,Reported,Shape', `K1,Theft,2025-05-10 14:30,POINT (${x} ${y})`].join('\n'),
    );
    expect(ins.proposal.location).toEqual({ kind: 'xy', x: 'Shape', y: 'Shape', epsg: 2276 });
    const pv = await mapped(ins, 'wkt', { id: 'Case' });
    await call('runImport', { importId: pv.importId });
    expect(metres(stored(namespacedId('wkt', 'K1')), 32.7767, -96.797)).toBeLessThan(1);
  });
});

describe('a GeoJSON export of incidents read through a mapping', () => {
  it('ArcGIS’s GeoJSON (its own field names, numbers, epoch-millisecond dates, a feature without geometry) maps by the file’s names, the Point as lat/lon', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 1,
          geometry: { type: 'Point', coordinates: [-96.797, 32.7767] },
          properties: {
            OBJECTID: 1,
            Incident_Number: '25-1',
            Offense: 'THEFT',
            Date_Reported: 1746887400000,
            Beat: 114,
          },
        },
        {
          type: 'Feature',
          id: 2,
          geometry: { type: 'Point', coordinates: [-96.8, 32.78] },
          properties: {
            OBJECTID: 2,
            Incident_Number: '25-2',
            Offense: 'THEFT',
            Date_Reported: '2025-05-10T14:30:00Z',
            Beat: null,
          },
        },
        {
          type: 'Feature',
          id: 3,
          geometry: null,
          properties: {
            OBJECTID: 3,
            Incident_Number: '25-3',
            Offense: 'THEFT',
            Date_Reported: 1746887400000,
            Beat: 116,
          },
        },
      ],
    };
    const path = t.file('incidents.geojson', JSON.stringify(fc));
    const pv = await call<ImportPreview>('previewImport', {
      source: { path },
      mapping: {
        name: 'AGOL',
        id: 'incident_number',
        type: 'Offense',
        date: 'Date_Reported',
        location: { kind: 'latlon', lat: 'lat', lon: 'lon' },
        keep: ['Beat'],
      },
    });
    expect([pv.rows, pv.valid, pv.errorCount]).toEqual([3, 2, 1]);
    expect(pv.errors[0]).toMatchObject({
      row: 3,
      field: 'lat',
      message: expect.stringMatching(/cell is blank/),
    });
    expect(count()).toBe(0);
    await call('runImport', { importId: pv.importId, onBadRows: 'skip' });
    expect(stored(namespacedId('AGOL', '25-1'))).toMatchObject({
      type: 'THEFT',
      lat: 32.7767,
      lon: -96.797,
      occurred_local: '2025-05-10T09:30',
      timezone: 'America/Chicago',
    });
    const kept = t.db
      .prepare('SELECT attributes FROM incident_imports WHERE cdid = ?')
      .pluck()
      .get(namespacedId('AGOL', '25-1')) as string;
    expect(JSON.parse(kept)).toEqual({ Beat: '114' });
  });
});

describe('a CSV saved by Excel on Windows (Windows-1252, not UTF-8)', () => {
  const lines = ['Incident Number,Offense,Block Address,Date Reported,Latitude,Longitude,Narrative'];
  for (let k = 1; k <= 2000; k++)
    lines.push(
      `L${k},ROBO,${k} CALLE PEÑA – NORTE,05/10/2025 14:30,32.7767,-96.797,"Victim’s “bag” taken; €${k}"`,
    );
  // The en dash, curly quotes and euro sign as Windows-1252 writes them (0x96, 0x92, 0x93/0x94, 0x80).
  const cp1252 = Buffer.from(
    lines
      .join('\r\n')
      .replace(/–/g, '\x96')
      .replace(/’/g, '\x92')
      .replace(/“/g, '\x93')
      .replace(/”/g, '\x94')
      .replace(/€/g, '\x80'),
    'latin1',
  );

  it('is read as Windows-1252 by the inspection, the preview and the parallel preview alike', async () => {
    expect(cp1252.includes(Buffer.from('PEÑA', 'utf8'))).toBe(false);
    const ins = await inspect('excel-ansi.csv', cp1252);
    expect(ins.sample[0]?.['Block Address']).toBe('1 CALLE PEÑA – NORTE');
    const pv = await mapped(ins, 'ansi');
    expect([pv.rows, pv.valid, pv.errorCount]).toEqual([2000, 2000, 0]);
    expect(pv.sample[0]?.address).toBe('1 CALLE PEÑA – NORTE');
    const { Imports } = await import('./imports');
    const { ColumnMapping } = await import('../../../src-shared/importMapping');
    const other = openTestEngine();
    try {
      const path = other.file('excel-ansi.csv', '');
      writeFileSync(path, cp1252);
      const many = await new Imports(
        {
          db: other.db,
          dataDir: other.dir.path,
          emit: () => undefined,
          query: other.engine.context.services.query,
        },
        Date.now,
        { parallelMinBytes: 0, threads: 2, chunkChars: 700, readBytes: 997 },
      ).preview({ path }, ColumnMapping.parse({ ...ins.proposal, name: 'ansi' }));
      expect({ ...many, importId: undefined }).toEqual({ ...pv, importId: undefined });
    } finally {
      other.close();
    }
    await call('runImport', { importId: pv.importId });
    expect(t.db.prepare('SELECT description FROM incidents LIMIT 1').pluck().get()).toMatch(
      /^Victim’s “bag” taken; €\d+$/,
    );
  });
});

describe('dates written with the month’s name', () => {
  it('Seattle’s open data (2025 May 10 02:30:00 PM): the offence start proposed over the report and the end, and read', async () => {
    const ins = await inspect(
      'spd.csv',
      [
        'Report Number,Offense ID,Offense Start DateTime,Offense End DateTime,Report DateTime,Offense,Offense Code,Beat,100 Block Address,Longitude,Latitude',
        '2025-123456,123,2025 May 10 02:30:00 PM,,2025 May 10 03:00:00 PM,Theft From Motor Vehicle,23F,Q1,3XX BLOCK OF W GALER ST,-122.3321,47.6062',
        '2025-123457,124,2025 Sep 01 12:05:00 AM,2025 Sep 01 01:00:00 AM,2025 Sep 02 09:00:00 AM,Burglary,220,Q2,1XX BLOCK OF PIKE ST,-122.34,47.61',
      ].join('\n'),
    );
    expect(ins.proposal).toMatchObject({
      id: 'Report Number',
      type: 'Offense',
      address: '100 Block Address',
      date: 'Offense Start DateTime',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
    });
    const pv = await mapped(ins, 'SPD');
    expect(pv.sample.map((s) => [s.occurredLocal, s.timezone])).toEqual([
      ['2025-05-10T14:30', 'America/Los_Angeles'],
      ['2025-09-01T00:05', 'America/Los_Angeles'],
    ]);
    // Oracle's DD-MON-YY and a long US date read too.
    const other = await inspect(
      'oracle.csv',
      [
        'CASE_NO,OFFENSE,RPT_DATE,LAT,LON',
        'A1,THEFT,10-MAY-25,32.7767,-96.797',
        'A2,THEFT,"May 11, 2025 1:30 PM",32.7767,-96.797',
      ].join('\n'),
    );
    const o = await mapped(other, 'oracle');
    expect(o.sample.map((s) => s.occurredLocal)).toEqual(['2025-05-10T00:00', '2025-05-11T13:30']);
  });
});

describe('dates written year first, and instants with an hours-only offset', () => {
  it('San Francisco’s 2018/12/01 12:25:00 AM is read as the wall time; PostgreSQL’s 2025-01-07 02:45:00+00 is an instant, shown in the zone', async () => {
    const ins = await inspect(
      'sfpd.csv',
      [
        'Incident Datetime,Report Datetime,Incident Number,Incident Category,Intersection,Latitude,Longitude',
        '2018/12/01 12:25:00 AM,2018/12/01 02:10:00 AM,181234567,Larceny Theft,MARKET ST \\ 5TH ST,37.7841,-122.4075',
        '2018/12/01 01:40:00 PM,2018/12/01 03:00:00 PM,181234568,Assault,MISSION ST \\ 16TH ST,37.765,-122.4196',
      ].join('\n'),
    );
    expect(ins.proposal).toMatchObject({ date: 'Incident Datetime', id: 'Incident Number' });
    const pv = await mapped(ins, 'SFPD');
    expect(pv).toMatchObject({ rows: 2, valid: 2, errorCount: 0 });
    expect(pv.sample.map((s) => [s.occurredLocal, s.timezone])).toEqual([
      ['2018-12-01T00:25', 'America/Los_Angeles'],
      ['2018-12-01T13:40', 'America/Los_Angeles'],
    ]);
    const pg = await inspect(
      'pg.csv',
      [
        'case_number,offense,occurred_at,latitude,longitude',
        'C1,THEFT,2025-01-07 02:45:00+00,41.8781,-87.6298',
        'C2,THEFT,2025/01/07 14:45:00-05,41.8781,-87.6298',
      ].join('\n'),
    );
    const p = await mapped(pg, 'pg');
    expect(p).toMatchObject({ valid: 2, errorCount: 0 });
    // 02:45 UTC is 20:45 the evening before in Chicago (UTC−6 in January); 14:45−05 is 13:45 there.
    expect(p.sample.map((s) => s.occurredLocal)).toEqual(['2025-01-06T20:45', '2025-01-07T13:45']);
  });
});

describe('a file of which no row can be read', () => {
  it('is said in the preview (which column failed on how many rows), and the run refuses it: nothing is imported', async () => {
    const ins = await inspect(
      'none.csv',
      [
        'Case Number,Offense,Occurred,Latitude,Longitude',
        'A1,THEFT,the 12th,41.88,-87.63',
        'A2,THEFT,the 13th,41.88,-87.63',
        'A3,THEFT,2025-05-10,,-87.63',
      ].join('\n'),
    );
    const pv = await mapped(ins, 'none', { date: 'Occurred' });
    expect(pv).toMatchObject({ rows: 3, valid: 0, errorCount: 3 });
    expect(pv.failures).toEqual([
      { field: 'Occurred', rows: 2, message: expect.stringMatching(/^Occurred: expected a date such as/) },
      { field: 'Latitude', rows: 1, message: expect.stringMatching(/^Latitude: expected a latitude/) },
    ]);
    expect(pv.unusable).toMatch(
      /^No row of none\.csv can be imported: Occurred failed on 2 rows \(expected a date such as .*\); Latitude failed on 1 row \(expected a latitude in degrees \(−90 to 90\); the cell is blank\)\.$/,
    );
    await expect(call('runImport', { importId: pv.importId, onBadRows: 'skip' })).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/^No row of none\.csv can be imported: .* Nothing was imported\.$/),
    });
    expect(count()).toBe(0);
    // A file with a row that reads has no such sentence.
    const some = await inspect(
      'some.csv',
      'Case Number,Offense,Occurred,Latitude,Longitude\nA1,THEFT,2025-05-10,41.88,-87.63\n',
    );
    const ok = await mapped(some, 'some', { date: 'Occurred' });
    expect(ok.valid).toBe(1);
    expect(ok.unusable).toBeUndefined();
    expect(ok.failures).toEqual([]);
  });
});

describe('ids two rows share (two victims of one case, the offences of one incident)', () => {
  const HEAD = 'ID,Case Number,Date,Block,Primary Type,Victim,Latitude,Longitude';
  /** Chicago's shape: 25,000 homicide rows with their own case numbers, then a second victim of case 24,999's. */
  const rows = (): string[] => {
    const out = [HEAD];
    for (let k = 1; k <= 25_000; k++)
      out.push(
        `${10_000 + k},JA${100_000 + k},01/0${1 + (k % 3)}/2016 0${1 + (k % 9)}:15:00 PM,0${k % 90}XX W MADISON ST,HOMICIDE,victim ${k},41.88,-87.6${k % 10}`,
      );
    // Another victim of the case on row 24,999: same case number, a row of its own (a different ID).
    out.push(
      `${40_000},JA${100_000 + 24_999},01/02/2016 09:15:00 PM,024XX W MADISON ST,HOMICIDE,victim B,41.88,-87.69`,
    );
    return out;
  };

  it('proposes the case number only when unique over the whole file, else the row id; a chosen shared id is named in the preview with what happens', async () => {
    const ins = await inspect('homicides.csv', rows().join('\n'));
    // The repeat is past the rows the proposal samples (and past the 20,000 inspected): the whole file decides.
    expect(ins.proposal.id).toBe('ID');
    const pv = await mapped(ins, 'CPD');
    expect(pv).toMatchObject({ rows: 25_001, valid: 25_001, duplicatesInFile: 0 });
    expect(pv.repeats).toEqual({ ids: 0, differing: 0, listed: [] });
    // Chosen anyway, the case number merges the second victim: the preview says so, naming the rows.
    const byCase = await mapped(ins, 'CPD', { id: 'Case Number' });
    expect(byCase).toMatchObject({ valid: 25_001, duplicatesInFile: 1 });
    expect(byCase.repeats).toEqual({
      ids: 1,
      differing: 1,
      listed: [{ id: 'JA124999', rows: [24_999, 25_001], count: 2, kept: 24_999, same: false }],
    });
    // What the preview said happens: the run keeps row 24,999's copy, the second victim is not imported.
    const done = await call<ImportResult>('runImport', { importId: byCase.importId, onBadRows: 'skip' });
    expect(done.inserted).toBe(25_000);
  }, 60_000);

  it('without a unique id column, none is proposed: rows identical in every column are one record, rows that differ are never merged', async () => {
    const text = [
      'Case Number,Date,Block,Primary Type,Victim,Latitude,Longitude',
      'JA100,01/01/2016 01:15:00 PM,001XX W MADISON ST,HOMICIDE,victim A,41.88,-87.63',
      'JA100,01/01/2016 01:15:00 PM,001XX W MADISON ST,HOMICIDE,victim B,41.88,-87.63',
      'JA101,01/01/2016 02:15:00 PM,002XX W MADISON ST,BATTERY,victim C,41.88,-87.64',
      'JA101,01/01/2016 02:15:00 PM,002XX W MADISON ST,BATTERY,victim C,41.88,-87.64',
    ].join('\n');
    const ins = await inspect('no-id.csv', text);
    expect(ins.proposal.id).toBeUndefined();
    expect(ins.proposal.keep).toEqual(expect.arrayContaining(['Case Number', 'Victim']));
    const pv = await mapped(ins, 'no id');
    expect(pv).toMatchObject({ rows: 4, valid: 4, duplicatesInFile: 1 });
    expect(pv.repeats).toMatchObject({
      ids: 1,
      differing: 0,
      listed: [{ rows: [3, 4], kept: 3, same: true }],
    });
    const done = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'skip' });
    expect(done.inserted).toBe(3);
    const victims = t.db
      .prepare(`SELECT json_extract(attributes, '$.Victim') FROM incident_imports ORDER BY 1`)
      .pluck()
      .all();
    expect(victims).toEqual(['victim A', 'victim B', 'victim C']);
    // The same file again: every row is found by its content, nothing is added.
    const again = await mapped(await inspect('no-id-again.csv', text), 'no id');
    expect(again).toMatchObject({ valid: 4, existing: 3 });
  });
});
