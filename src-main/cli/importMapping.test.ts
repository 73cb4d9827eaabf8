/**
 * `blotter import FILE --mapping NAME | --mapping-file F.json`, run as processes: another system's
 * CSV imported through a mapping written as JSON (and so saved by its name), then a second file
 * through the saved mapping by name; an unknown name, two flags, and a file that is not a mapping
 * are each refused with one clear line.
 */
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { onlyLine, runCli } from './cliTesting';

let dir: TempDir;
beforeAll(() => {
  dir = makeTempDir('blotter-cli-mapping-');
});
afterAll(() => dir.remove());

const cli = (args: string[]) => runCli('', args, { env: { BLOTTER_API_KEY: undefined } });
const HEADER = 'Case No,Offense,Block Address,Date Reported,X Coordinate,Y Coordinate,Beat';
const MAPPING = {
  name: 'Chicago RMS',
  id: 'Case No',
  type: 'Offense',
  typeMap: { '0486': 'Assault' },
  address: 'Block Address',
  date: 'Date Reported',
  location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 3435 },
  keep: ['Beat'],
};

describe('blotter import --mapping', () => {
  it('imports through a mapping file, then another file through the mapping saved by name', async () => {
    const data = `${dir.path}/data`;
    const may = `${dir.path}/may.csv`;
    writeFileSync(
      may,
      [
        HEADER,
        'JA1,0486,012XX N STATE ST,05/10/2025 01:30 PM,1176200,1908600,1824',
        'JA2,0820,004XX W ERIE ST,05/11/2025 09:05 AM,1172300,1904500,1831',
      ].join('\n'),
    );
    const mappingFile = `${dir.path}/chicago.json`;
    writeFileSync(mappingFile, JSON.stringify(MAPPING));
    const first = await cli(['import', may, '--mapping-file', mappingFile, '--data-dir', data]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('may.csv: through the mapping "Chicago RMS", 2 records, 2 valid.');
    expect(first.stdout).toContain('Imported: 2 added');
    // The mapping file's typeMap is the type map (0820, not in it, keeps its text); each row keeps
    // the file's own code as its subtype.
    const stored = new Database(`${data}/blotter.sqlite`, { readonly: true });
    try {
      expect(stored.prepare('SELECT type, subtype FROM incidents ORDER BY subtype').all()).toEqual([
        { type: 'Assault', subtype: '0486' },
        { type: '0820', subtype: '0820' },
      ]);
    } finally {
      stored.close();
    }

    const june = `${dir.path}/june.csv`;
    writeFileSync(
      june,
      [HEADER, 'JA3,0486,016XX N CLARK ST,06/12/2025 11:59 PM,1174500,1911000,1814'].join('\n'),
    );
    const second = await cli(['import', june, '--mapping', 'chicago rms', '--data-dir', data]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('through the mapping "Chicago RMS", 1 records, 1 valid');
    expect(second.stdout).toContain('Imported: 1 added');

    const unknown = await cli(['import', june, '--mapping', 'Dallas', '--data-dir', data]);
    expect(unknown.code).toBe(1);
    expect(onlyLine(unknown)).toBe('blotter: No mapping is saved as "Dallas". Saved: "Chicago RMS".');
  });

  it('imports nothing and exits 1 when no row can be read, naming the column that failed on how many rows', async () => {
    const data = `${dir.path}/data-unusable`;
    const file = `${dir.path}/unusable.csv`;
    // Every date is in a shape no reader takes (a day count), and one row has no offence.
    writeFileSync(
      file,
      [
        HEADER,
        'JA1,0486,012XX N STATE ST,day 12,1176200,1908600,1824',
        'JA2,0820,004XX W ERIE ST,day 13,1172300,1904500,1831',
        'JA3,,004XX W ERIE ST,day 14,1172300,1904500,1831',
      ].join('\n'),
    );
    const mappingFile = `${dir.path}/unusable.json`;
    writeFileSync(mappingFile, JSON.stringify(MAPPING));
    const r = await cli(['import', file, '--mapping-file', mappingFile, '--data-dir', data]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toContain('Imported:');
    expect(r.stdout).toContain('by column: Date Reported 2, Offense 1');
    expect(onlyLine(r)).toMatch(
      /^blotter: No row of unusable\.csv can be imported: Date Reported failed on 2 rows \(expected a date such as .*\); Offense failed on 1 row \(expected an offence code or type\)\. Nothing was imported\.$/,
    );
    // The mapping is good: a file whose rows read imports through it into the same folder.
    const good = `${dir.path}/good.csv`;
    writeFileSync(
      good,
      [HEADER, 'JA1,0486,012XX N STATE ST,05/10/2025 01:30 PM,1176200,1908600,1824'].join('\n'),
    );
    const ok = await cli(['import', good, '--mapping-file', mappingFile, '--data-dir', data]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Would add 1 new incidents.');
    expect(ok.stdout).toContain('Imported: 1 added');
  });

  it('names an id two rows share and what happens to them (a dry run writes nothing)', async () => {
    const file = `${dir.path}/victims.csv`;
    writeFileSync(
      file,
      [
        HEADER,
        'JA1,0486,012XX N STATE ST,05/10/2025 01:30 PM,1176200,1908600,1824',
        'JA1,0486,012XX N STATE ST,05/10/2025 01:30 PM,1176210,1908610,1824',
        'JA2,0820,004XX W ERIE ST,05/11/2025 09:05 AM,1172300,1904500,1831',
      ].join('\n'),
    );
    const mappingFile = `${dir.path}/victims.json`;
    writeFileSync(mappingFile, JSON.stringify(MAPPING));
    const r = await cli([
      'import',
      file,
      '--mapping-file',
      mappingFile,
      '--dry-run',
      '--data-dir',
      `${dir.path}/data-victims`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 records, 3 valid (1 repeated in the file).');
    expect(r.stdout).toContain(
      '1 id is on more than one row; 1 of those rows differ from the copy kept and would not be imported (map an id column unique to each row, or none, to import them all):\n' +
        '  id JA1: rows 1, 2 differ; only row 1 is imported, the others add at most a description it lacks\n',
    );
    expect(r.stdout).toContain('Dry run: nothing was written.');
  });

  it('refuses a file that is not a mapping, and both flags at once, before opening anything', async () => {
    const bad = `${dir.path}/bad.json`;
    writeFileSync(bad, JSON.stringify({ ...MAPPING, location: { kind: 'xy', x: 'X Coordinate' } }));
    const r = await cli([
      'import',
      `${dir.path}/x.csv`,
      '--mapping-file',
      bad,
      '--data-dir',
      `${dir.path}/d2`,
    ]);
    expect(r.code).toBe(2);
    expect(onlyLine(r)).toMatch(
      /^blotter import: The mapping file .*bad\.json is not a column mapping: location\.y: /,
    );
    const both = await cli([
      'import',
      'x.csv',
      '--mapping',
      'A',
      '--mapping-file',
      bad,
      '--data-dir',
      `${dir.path}/d2`,
    ]);
    expect(both.code).toBe(2);
    expect(onlyLine(both)).toContain('Give --mapping NAME or --mapping-file F.json, not both.');
  });

  it('--type gives every row one type (a file of shootings, no type column); a mapping file may say so itself as constantType, not beside a type column', async () => {
    const file = `${dir.path}/shootings.csv`;
    writeFileSync(
      file,
      [
        'INCIDENT_KEY,OCCUR_DATE,OCCUR_TIME,PRECINCT,Latitude,Longitude',
        '137471050,06/27/2014,17:40:00,40,40.81,-73.92',
        '137471050,06/27/2014,17:40:00,40,40.811,-73.921',
        '147998800,11/21/2015,03:56:00,108,40.74,-73.92',
      ].join('\n'),
    );
    const shootings = {
      name: 'NYPD shootings',
      date: 'OCCUR_DATE',
      time: 'OCCUR_TIME',
      location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
      keep: ['PRECINCT'],
    };
    const mappingFile = `${dir.path}/shootings.json`;
    writeFileSync(mappingFile, JSON.stringify(shootings));
    const data = `${dir.path}/data-shootings`;
    const r = await cli([
      'import',
      file,
      '--mapping-file',
      mappingFile,
      '--type',
      'Shooting',
      '--data-dir',
      data,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 records, 3 valid.');
    expect(r.stdout).toContain('Imported: 3 added');
    const db = new Database(`${data}/blotter.sqlite`, { readonly: true });
    try {
      expect(db.prepare('SELECT DISTINCT type FROM incidents').pluck().all()).toEqual(['Shooting']);
    } finally {
      db.close();
    }
    // Without --type the file must say how rows get their type.
    const none = await cli(['import', file, '--mapping-file', mappingFile, '--data-dir', data]);
    expect(none.code).toBe(2);
    expect(onlyLine(none)).toMatch(
      /give "type" \(the type column\) or "constantType" \(one type for every row\)\.$/,
    );
    const oneFile = `${dir.path}/shootings-constant.json`;
    writeFileSync(oneFile, JSON.stringify({ ...shootings, constantType: 'Shooting' }));
    const again = await cli(['import', file, '--mapping-file', oneFile, '--dry-run', '--data-dir', data]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('3 records, 3 valid.');
    const bothFile = `${dir.path}/shootings-both.json`;
    writeFileSync(bothFile, JSON.stringify({ ...shootings, type: 'PRECINCT', constantType: 'Shooting' }));
    const both = await cli(['import', file, '--mapping-file', bothFile, '--data-dir', data]);
    expect(both.code).toBe(2);
    expect(onlyLine(both)).toMatch(/, not both\.$/);
    const bare = await cli(['import', file, '--type', 'Shooting', '--data-dir', data]);
    expect(bare.code).toBe(2);
    expect(onlyLine(bare)).toContain('--type gives every row one type through a mapping');
  });
});
