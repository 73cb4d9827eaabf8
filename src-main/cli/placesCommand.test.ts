/**
 * Rows without coordinates (issue 28, item 4), run as processes: Chicago's whole export imports its
 * 188 rows without coordinates as unplaced (their time in the zone of the file's placed rows), and
 * `places retry` places them from the archive's own block addresses, recording how and how far off;
 * Charlottesville's address-only file imports as unplaced rows (times in the mapping's zone), and
 * `places add` with address points places the rows it can, `import --place` at once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { CsvRecordReader } from '../engine/import/csvRecords';
import { runCli } from './cliTesting';

let dir: TempDir;
beforeAll(() => {
  dir = makeTempDir('blotter-cli-places-');
});
afterAll(() => dir.remove());

const cli = (args: string[]) => runCli('', args, { env: { BLOTTER_API_KEY: undefined } });
const CHICAGO = join(__dirname, '../engine/import/places/fixtures/chicago-crimes-2016-01-01-to-03.csv');
const CHARLOTTESVILLE = join(__dirname, '../engine/import/fixtures/charlottesville-crime.head300.csv');

function csv(file: string): Record<string, string>[] {
  const r = new CsvRecordReader();
  const recs = [...r.push(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')), ...r.end()];
  const header = recs[0] as string[];
  return recs.slice(1).map((v) => Object.fromEntries(header.map((h, k) => [h, v[k] ?? ''])));
}

describe('blotter import: rows without coordinates', () => {
  it('Chicago: the 188 rows without coordinates wait as unplaced, and places retry places them from the archive', async () => {
    const data = `${dir.path}/chicago`;
    const mappingFile = `${dir.path}/chicago.json`;
    writeFileSync(
      mappingFile,
      JSON.stringify({
        name: 'Chicago portal',
        id: 'ID',
        type: 'Primary Type',
        address: 'Block',
        date: 'Date',
        location: { kind: 'latlon', lat: 'Latitude', lon: 'Longitude' },
        keep: ['Beat'],
      }),
    );
    const run = await cli(['import', CHICAGO, '--mapping-file', mappingFile, '--data-dir', data]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "188 rows have an address but no coordinates: kept as unplaced (their times read in America/Chicago, the zone of most of the file's placed rows):",
    );
    expect(run.stdout).toMatch(/row \d+: \d{3}XX [NSEW] .+ — no coordinates \(Latitude, Longitude blank\)/);
    expect(run.stdout).toContain('Imported: 1542 added');
    expect(run.stdout).toContain('188 rows without coordinates wait as unplaced');

    let db = new Database(`${data}/blotter.sqlite`, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(1542);
    expect(db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get()).toBe(188);
    // The file's own wall time, in Chicago's zone (the rows carry no zone of their own).
    const withoutPlace = csv(CHICAGO).filter((r) => r.Latitude === '');
    const first = withoutPlace[0] as Record<string, string>;
    const held = db
      .prepare(
        'SELECT occurred_local, timezone, reason, address FROM unplaced_incidents WHERE external_id = ?',
      )
      .get(first.ID) as { occurred_local: string; timezone: string; reason: string; address: string };
    expect(held.timezone).toBe('America/Chicago');
    expect(held.address).toBe(first.Block);
    const [m, d, y, hm, ampm] = (first.Date as string).split(/[/ ]/);
    const [h, min] = (hm as string).split(':').map(Number) as [number, number];
    const hour = (h % 12) + (ampm === 'PM' ? 12 : 0);
    expect(held.occurred_local).toBe(
      `${y}-${m}-${d}T${String(hour).padStart(2, '0')}:${String(min).padStart(2, '0')}`,
    );
    db.close();

    const list = await cli(['places', 'list', '--data-dir', data]);
    expect(list.stdout).toContain('188 unplaced rows.');

    const retry = await cli(['places', 'retry', '--data-dir', data]);
    expect(retry.code, retry.stderr).toBe(0);
    const placed = Number(/Placed (\d+) of 188 unplaced rows/.exec(retry.stdout)?.[1]);
    // Most of Chicago's blocks recur over three days; the rest are between known blocks of their street.
    expect(placed).toBeGreaterThan(150);
    db = new Database(`${data}/blotter.sqlite`, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(1542 + placed);
    expect(db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get()).toBe(188 - placed);
    const how = db
      .prepare(
        'SELECT method, count(*) AS n, min(uncertainty_m) AS lo FROM incident_placements GROUP BY method',
      )
      .all() as { method: string; n: number; lo: number }[];
    expect(how.reduce((n, r) => n + r.n, 0)).toBe(placed);
    expect(how.map((r) => r.method).sort()).toEqual(['block', 'interpolated']);
    for (const r of how) expect(r.lo).toBeGreaterThan(0);
    // A placed row is an incident like any other: in Chicago, its zone and its kept columns with it.
    const one = db
      .prepare(
        `SELECT i.lat, i.lon, i.timezone, x.attributes FROM incidents i JOIN incident_placements p USING (cdid)
         JOIN incident_imports x USING (cdid) LIMIT 1`,
      )
      .get() as { lat: number; lon: number; timezone: string; attributes: string };
    expect(one.timezone).toBe('America/Chicago');
    expect(one.lat).toBeGreaterThan(41.6);
    expect(one.lat).toBeLessThan(42.1);
    expect(JSON.parse(one.attributes)).toHaveProperty('Beat');
    db.close();
  });

  it('Charlottesville (addresses only): every row unplaced, then placed where address points reach', async () => {
    const data = `${dir.path}/cville`;
    const mapping = {
      name: 'Charlottesville',
      id: 'IncidentID',
      type: 'Offense',
      address: 'StreetName',
      block: 'BlockNumber',
      date: 'DateReported',
      location: { kind: 'none' },
      timezone: 'America/New_York',
      keep: ['HourReported'],
    };
    const mappingFile = `${dir.path}/cville.json`;
    writeFileSync(mappingFile, JSON.stringify(mapping));
    const run = await cli(['import', CHARLOTTESVILLE, '--mapping-file', mappingFile, '--data-dir', data]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "300 rows have an address but no coordinates: kept as unplaced (their times read in America/New_York, the mapping's zone):",
    );
    expect(run.stdout).toContain(
      'row 1: 800 ELLIOTT AVE — no coordinates (the file has no location columns)',
    );
    expect(run.stdout).toContain('Imported: 0 added');
    let db = new Database(`${data}/blotter.sqlite`, { readonly: true });
    // 2022/10/18 01:08:59+00 is the evening before in Virginia.
    expect(
      db
        .prepare("SELECT occurred_local, timezone FROM unplaced_incidents WHERE external_id = '202200030104'")
        .get(),
    ).toEqual({ occurred_local: '2022-10-17T21:08', timezone: 'America/New_York' });
    expect(db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get()).toBe(300);
    db.close();

    const points = `${dir.path}/cville-points.csv`;
    writeFileSync(
      points,
      [
        'ADD_NUMBER,STREET_NAME,LATITUDE,LONGITUDE',
        '210,E Market Street,38.0305,-78.4790',
        '610,E Market Street,38.0300,-78.4750',
        '1010,E Market Street,38.0296,-78.4710',
        '110,10th Street NE,38.0310,-78.4705',
      ].join('\n'),
    );
    const added = await cli(['places', 'add', points, '--data-dir', data]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added 4 address points from cville-points.csv.');
    const placed = Number(/Placed (\d+) of 300 unplaced rows/.exec(added.stdout)?.[1]);
    db = new Database(`${data}/blotter.sqlite`, { readonly: true });
    const rows = db
      .prepare(
        `SELECT i.address, p.method FROM incidents i JOIN incident_placements p USING (cdid) ORDER BY i.address`,
      )
      .all() as { address: string; method: string }[];
    expect(rows.length).toBe(placed);
    // Every E MARKET ST row within the points' reach (blocks 0–1200) and the intersection with 10th.
    const expected = csv(CHARLOTTESVILLE).filter(
      (r) =>
        (r.StreetName === 'E MARKET ST' && Number(r.BlockNumber) <= 1200) ||
        r.StreetName === 'E MARKET ST / 10TH ST NE' ||
        (r.StreetName === 'W MARKET ST' && Number(r.BlockNumber) <= 400),
    );
    expect(placed).toBe(expected.length);
    expect(rows.find((r) => r.address === 'E MARKET ST / 10TH ST NE')?.method).toBe('intersection');
    expect(rows.filter((r) => r.address === '600 E MARKET ST').map((r) => r.method)).toEqual(
      Array(4).fill('block'),
    );
    expect(rows.find((r) => r.address === '200 E MARKET ST')?.method).toBe('block');
    expect(rows.find((r) => r.address === '800 E MARKET ST')?.method).toBe('interpolated');
    expect(db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get()).toBe(300 - placed);
    db.close();

    // An export may carry the rows still unplaced after the incidents, their coordinates empty.
    const out = `${dir.path}/cville.csv`;
    const exported = await cli([
      'export',
      '--format',
      'csv',
      '--include-unplaced',
      '--out',
      out,
      '--data-dir',
      data,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = csv(out);
    expect(lines.length).toBe(300);
    const waiting = lines.filter((l) => l.lat === '' && l.lon === '');
    expect(waiting.length).toBe(300 - placed);
    expect(waiting.find((l) => l.address === '800 ELLIOTT AVE')).toMatchObject({
      occurred_local: '2022-10-17T21:08',
      timezone: 'America/New_York',
      occurred_utc: '2022-10-18T01:08:00.000Z',
    });
    const plain = `${dir.path}/cville-placed.csv`;
    await cli(['export', '--format', 'csv', '--out', plain, '--data-dir', data]);
    expect(csv(plain).length).toBe(placed);

    // Imported again with --place: the rows already placed stay, the rest are tried at once.
    const again = await cli([
      'import',
      CHARLOTTESVILLE,
      '--mapping-file',
      mappingFile,
      '--place',
      '--data-dir',
      data,
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Placed 0 of the \d+ rows without coordinates/);
  });
});
