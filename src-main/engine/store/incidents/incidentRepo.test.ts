import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { openDatabase, type Db } from '../database';
import { recordOf } from './apiRecord';
import { createIncidentRepo, incidentsByCdid, type IncidentRepo } from './incidentRepo';
import { INSERT_COLUMNS, type IncidentRecord } from './incidentRow';

const api = (cdid: number, over: Partial<{ type: string; address: string; date: string }> = {}) =>
  recordOf({
    cdid,
    type: over.type ?? 'Theft',
    address: over.address ?? `${cdid} Block of N Oak St`,
    lat: 41.88,
    lon: -87.63,
    link: `https://crime.example.test/incident/${cdid}`,
    date: over.date ?? '05/10/25 01:30 PM',
  });

/** An imported row in INSERT_COLUMNS' order. */
const imported = (r: IncidentRecord, seen: number, description: string | null = null): unknown[] =>
  INSERT_COLUMNS.map((c) =>
    c === 'description'
      ? description
      : c === 'first_seen' || c === 'last_seen'
        ? seen
        : c === 'removed_at' || c === 'removed_reason'
          ? null
          : c === 'source'
            ? 'import'
            : r[c],
  );

describe('incident repository', () => {
  let tmp: TempDir;
  let db: Db;
  let repo: IncidentRepo;
  beforeEach(() => {
    tmp = makeTempDir();
    db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
    repo = createIncidentRepo(db);
  });
  afterEach(() => {
    db.close();
    tmp.remove();
  });

  it('stores an API incident with its local time, and tells new, seen and amended apart', () => {
    expect(repo.upsertFromApi(api(1), 1000)).toBe('new');
    const row = repo.get(1);
    expect(row).toMatchObject({
      type: 'Theft',
      date_raw: '05/10/25 01:30 PM',
      occurred_local: '2025-05-10T13:30',
      timezone: 'America/Chicago',
      local_day: '2025-05-10',
      local_hour: 13,
      first_seen: 1000,
      last_seen: 1000,
      source: 'api',
    });
    expect(repo.upsertFromApi(api(1), 2000)).toBe('seen');
    expect(repo.get(1)).toMatchObject({ first_seen: 1000, last_seen: 2000 });
    expect(repo.upsertFromApi(api(1, { type: 'Robbery' }), 3000)).toBe('amended');
    expect(repo.get(1)).toMatchObject({ type: 'Robbery', first_seen: 1000, last_seen: 3000 });
  });

  it('marks a row removed softly, and the API serving it again revives it', () => {
    repo.upsertFromApi(api(2), 1000);
    repo.markRemoved(2, 1500, 'no longer returned by the API');
    expect(repo.get(2)).toMatchObject({ removed_at: 1500, removed_reason: 'no longer returned by the API' });
    expect(repo.upsertFromApi(api(2), 2000)).toBe('amended');
    expect(repo.get(2)).toMatchObject({ removed_at: null, removed_reason: null, last_seen: 2000 });
    repo.delete(2);
    expect(repo.get(2)).toBeUndefined();
  });

  it('never lets an imported copy replace an API row, only fill its empty description', () => {
    repo.upsertFromApi(api(3), 1000);
    const copy = imported(api(3, { address: 'Elsewhere' }), 9000, 'Seen by a neighbour');
    expect(repo.insertIfNew(copy)).toBe(false);
    expect(repo.replaceImportedIfLater(copy, 9000)).toBe(false);
    expect(repo.fillDescription(3, 'Seen by a neighbour', 9500)).toBe(true);
    expect(repo.fillDescription(3, 'Another story', 9600)).toBe(false);
    expect(repo.get(3)).toMatchObject({
      address: '3 Block of N Oak St',
      last_seen: 1000,
      source: 'api',
      description: 'Seen by a neighbour',
      description_fetched_at: 9500,
    });
  });

  it('replaces an imported row only with a copy seen later, keeping the earlier first sighting', () => {
    expect(repo.insertIfNew(imported(api(4), 5000, 'first'))).toBe(true);
    expect(repo.replaceImportedIfLater(imported(api(4, { address: 'Older' }), 4000), 4000)).toBe(false);
    expect(repo.replaceImportedIfLater(imported(api(4, { address: 'Newer' }), 6000), 6000)).toBe(true);
    expect(repo.get(4)).toMatchObject({
      address: 'Newer',
      description: 'first',
      first_seen: 5000,
      last_seen: 6000,
      source: 'import',
    });
  });

  it('reads chosen columns by cdid range or list, ascending', () => {
    for (const cdid of [5, 7, 9]) repo.upsertFromApi(api(cdid), 1000);
    const read = incidentsByCdid(db, ['cdid', 'type'] as const);
    expect(read.between(6, 9)).toEqual([
      [7, 'Theft'],
      [9, 'Theft'],
    ]);
    expect(read.among([9, 5, 8])).toEqual([
      [5, 'Theft'],
      [9, 'Theft'],
    ]);
  });
});
