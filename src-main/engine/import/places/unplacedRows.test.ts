/**
 * The zone an import's rows without coordinates are read in: the mapping's, else most of the
 * file's placed rows', else the first area's, else UTC — on a real archive file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Mapped } from '../mapping/apply';
import { openDatabase } from '../../store/database';
import { settleUnplaced, unplacedZone } from './unplacedRows';

const row = (over: Partial<Mapped>): Mapped => ({
  cdid: -5,
  type: 'Theft',
  address: '800 ELLIOTT AVE',
  lat: Number.NaN,
  lon: Number.NaN,
  occurred_local: '2022-10-18T01:08',
  timezone: 'UTC',
  attributes: null,
  unplaced: 'no coordinates (the file has no location columns)',
  ...over,
});

describe('unplaced rows’ zone', () => {
  it('takes the mapping’s zone, else most placed rows’, else the first area’s, else UTC', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'unplaced-')), 'blotter.sqlite'));
    expect(unplacedZone(db, 'America/Denver', { 'America/Chicago': 5 })).toEqual({
      zone: 'America/Denver',
      from: 'mapping',
    });
    expect(unplacedZone(db, undefined, { 'America/Chicago': 5, 'America/New_York': 7 })).toEqual({
      zone: 'America/New_York',
      from: 'file',
    });
    expect(unplacedZone(db, undefined, {})).toEqual({ zone: 'UTC', from: 'none' });
    db.prepare(
      `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
       VALUES ('Seattle', 'circle', 47.6, -122.33, 1, 47.58, -122.35, 47.62, -122.31, 0)`,
    ).run();
    expect(unplacedZone(db, undefined, {})).toEqual({ zone: 'America/Los_Angeles', from: 'area' });
    db.close();
  });

  it('reads a wall time in the zone, an instant as the zone’s wall time, and refuses a future one', () => {
    const { rows, problems } = settleUnplaced(
      [
        { row: 1, mapped: row({}) },
        {
          row: 2,
          mapped: row({
            cdid: -6,
            occurred_local: '2022-10-18T01:08',
            occurred_utc: '2022-10-18T01:08:00.000Z',
          }),
        },
        { row: 3, mapped: row({ cdid: -7, occurred_local: '2099-01-01T00:00' }) },
      ],
      'America/New_York',
      Date.parse('2026-01-01T00:00:00Z'),
    );
    expect(rows.map((r) => [r.row, r.occurredLocal, r.occurredUtc])).toEqual([
      [1, '2022-10-18T01:08', Date.parse('2022-10-18T05:08:00Z')],
      [2, '2022-10-17T21:08', Date.parse('2022-10-18T01:08:00Z')],
    ]);
    expect(rows[0]?.reason).toBe('no coordinates (the file has no location columns)');
    expect(problems).toEqual([
      { row: 3, field: 'occurred_local', message: expect.stringMatching(/in the future/) },
    ]);
  });
});
