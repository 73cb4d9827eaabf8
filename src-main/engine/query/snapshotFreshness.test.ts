/**
 * The saved snapshot is checked against the file's incident change counter (store migration 006),
 * not file times: a write by another process while Blotter was closed (a command-line sync, an
 * import, a restored backup) makes the next session's first answers say "updating" until the
 * re-read is in; an unchanged file starts current, with no re-read at all. Only the app's views say
 * "updating" (`'view'` on a service whose views may lag); a result waits for the re-read instead.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/database';
import { incidentCalls } from './calls';
import { changeCounter } from './changeLog';
import { QueryService } from './service';
import { closeFixture, nonZero, openFixture, referenceCounts, type Fixture } from './testFixtures';

const all = { includeRemoved: true };

describe('the saved snapshot against the change counter', () => {
  let f: Fixture;
  let cacheFile: string;
  const open = (onExternalChange?: () => void) =>
    new QueryService(f.db, {
      now: () => f.now,
      cacheFile,
      loadChunkRows: 100,
      viewsMayLag: true,
      ...(onExternalChange ? { onExternalChange } : {}),
    });
  /** Another process writes the file (as the CLI does), through its own connection. */
  const elsewhere = (sql: string) => {
    const other = new Database(f.file);
    other.prepare(sql).run();
    other.close();
  };

  beforeEach(async () => {
    f = openFixture({ count: 900 });
    cacheFile = `${f.file}.snapshot`;
    const first = open();
    await incidentCalls.countIncidents(first, { filters: all });
    await first.close();
  });
  afterEach(() => closeFixture(f));

  it('counts every watched write by any connection, not a sync seeing an incident again', () => {
    const before = changeCounter(f.db);
    expect(before).toMatch(/^[0-9a-f]{16}:\d+$/);
    elsewhere('UPDATE incidents SET last_seen = last_seen + 1');
    expect(changeCounter(f.db)).toBe(before);
    elsewhere("UPDATE incidents SET type = 'Shooting' WHERE cdid = (SELECT min(cdid) FROM incidents)");
    expect(changeCounter(f.db)).not.toBe(before);
  });

  it('an unchanged file: the next session is current at once and reads nothing again', async () => {
    const second = open();
    const counts = await incidentCalls.countIncidents(second, { filters: all });
    expect(counts.updating).toBeUndefined();
    expect(second.keeper.startedFrom).toBe('saved');
    expect(second.keeper.reloading).toBeNull();
    expect(second.keeper.updating).toBe(false);
    await second.close();
  });

  it('a write while closed: first answers say "updating", then the fresh ones do not', async () => {
    elsewhere("UPDATE incidents SET type = 'Shooting' WHERE type = 'Burglary'");
    let changed = 0;
    const second = open(() => changed++);
    const stale = await incidentCalls.countIncidents(second, { filters: all }, 'view');
    expect(stale.updating).toBe(true);
    const sketch = await incidentCalls.getMapSketch(second, { filters: all, zoom: 10 }, 'view');
    expect(sketch.updating).toBe(true);
    expect((await incidentCalls.getMapPoints(second, { filters: all }, 'view')).updating).toBe(true);

    await second.keeper.reloading;
    expect(changed).toBe(1); // the views ask again
    const fresh = await incidentCalls.countIncidents(second, { filters: all });
    expect(fresh.updating).toBeUndefined();
    expect({ total: fresh.total, byType: nonZero(fresh.byType) }).toEqual(referenceCounts(f.db, '1'));
    expect((await incidentCalls.getMapSketch(second, { filters: all, zoom: 10 })).updating).toBe(false);
    await second.close();

    // Saved again with the counter it now reflects: the session after that is current.
    const third = open();
    expect((await incidentCalls.countIncidents(third, { filters: all })).updating).toBeUndefined();
    expect(third.keeper.reloading).toBeNull();
    await third.close();
  });

  it('a result never comes from a saved snapshot behind the file: it waits for the re-read', async () => {
    elsewhere('DELETE FROM incidents WHERE cdid IN (SELECT cdid FROM incidents ORDER BY cdid LIMIT 25)');
    const live = referenceCounts(f.db, 'removed_at IS NULL');
    for (const asked of ['summary', 'count', 'view on the CLI'] as const) {
      // A new session each time, its columns not yet in memory: the saved header is behind too.
      const session =
        asked === 'view on the CLI'
          ? new QueryService(f.db, { now: () => f.now, cacheFile, loadChunkRows: 100, viewsMayLag: false })
          : open();
      if (asked === 'summary') {
        expect((await incidentCalls.getArchiveSummary(session)).total).toBe(live.total);
      } else {
        const counted = await incidentCalls.countIncidents(
          session,
          { filters: {} },
          asked === 'count' ? undefined : 'view',
        );
        expect(counted.updating).toBeUndefined();
        expect({ total: counted.total, byType: nonZero(counted.byType) }).toEqual(live);
      }
      expect(session.keeper.updating).toBe(false);
      await session.close();
      elsewhere("UPDATE incidents SET type = 'Shooting' WHERE cdid = (SELECT max(cdid) FROM incidents)");
      Object.assign(live, referenceCounts(f.db, 'removed_at IS NULL'));
    }
  });

  it('this session’s own writes are saved as current', async () => {
    const second = open();
    await incidentCalls.countIncidents(second, { filters: all });
    f.db
      .prepare("UPDATE incidents SET type = 'Own write' WHERE cdid = (SELECT max(cdid) FROM incidents)")
      .run();
    expect(nonZero((await incidentCalls.countIncidents(second, { filters: all })).byType)['Own write']).toBe(
      1,
    );
    await second.close();
    const third = open();
    const counts = await incidentCalls.countIncidents(third, { filters: all });
    expect(counts.updating).toBeUndefined();
    expect(nonZero(counts.byType)['Own write']).toBe(1);
    expect(third.keeper.reloading).toBeNull();
    await third.close();
  });

  it('a restored backup (an older copy of the file) is caught', async () => {
    f.db.pragma('wal_checkpoint(TRUNCATE)');
    const backup = `${f.file}.bak`;
    copyFileSync(f.file, backup);
    const second = open();
    await incidentCalls.countIncidents(second, { filters: all });
    f.db.prepare('DELETE FROM incidents WHERE cdid IN (SELECT cdid FROM incidents LIMIT 10)').run();
    await incidentCalls.countIncidents(second, { filters: all });
    await second.close(); // saved: 890 incidents, the counter after the delete
    f.db.close();
    copyFileSync(backup, f.file); // the backup (900 incidents, an older counter) comes back
    f.db = openDatabase(f.file);
    const third = open();
    expect((await incidentCalls.countIncidents(third, { filters: all }, 'view')).updating).toBe(true);
    await third.keeper.reloading;
    expect((await incidentCalls.countIncidents(third, { filters: all }, 'view')).total).toBe(900);
    await third.close();
  });
});

describe('the map sketch', () => {
  let f: Fixture;
  beforeEach(() => {
    f = openFixture({ count: 3000 });
  });
  afterEach(() => closeFixture(f));

  it('adds up to the filter’s total, the same from SQL before the snapshot as from the snapshot', async () => {
    for (const filters of [{}, { preset: '90d' as const }, { types: ['theft', 'Assault'] }, all]) {
      const fromStore = await incidentCalls.getMapSketch(f.service, { filters, zoom: 11 });
      expect(f.service.keeper.inMemory).toBe(false);
      const counts = await incidentCalls.countIncidents(
        new QueryService(f.db, { now: () => f.now, cacheFile: null }),
        { filters },
      );
      expect(fromStore.count.reduce((a, b) => a + b, 0)).toBe(counts.total);
      expect(fromStore.total).toBe(counts.total);
    }
    await f.service.snapshot();
    const filters = { preset: '90d' as const };
    const fromSnapshot = await incidentCalls.getMapSketch(f.service, { filters, zoom: 11 });
    const total = (await incidentCalls.countIncidents(f.service, { filters })).total;
    expect(fromSnapshot.count.reduce((a, b) => a + b, 0)).toBe(total);
    expect(fromSnapshot.typeCounts.reduce((a, b) => a + b, 0)).toBe(total);
    expect(fromSnapshot.lat.length).toBeGreaterThan(0);
  });

  it('keeps to at most a few thousand cells, coarser when needed', async () => {
    const sketch = await incidentCalls.getMapSketch(f.service, { filters: all, zoom: 22 });
    expect(sketch.count.length).toBeLessThanOrEqual(4000);
    expect(sketch.total).toBe(sketch.count.reduce((a, b) => a + b, 0));
  });
});

describe('answers from the saved header, before the columns are in memory', () => {
  let f: Fixture;
  let cacheFile: string;
  beforeEach(async () => {
    f = openFixture({ count: 2000 });
    cacheFile = `${f.file}.snapshot`;
    const first = new QueryService(f.db, { now: () => f.now, cacheFile });
    await first.snapshot();
    await first.close();
  });
  afterEach(() => closeFixture(f));

  it('counts (dates and types) and the summary equal the full answers', async () => {
    const early = new QueryService(f.db, { now: () => f.now, cacheFile });
    const full = new QueryService(f.db, { now: () => f.now, cacheFile: null });
    for (const filters of [
      {},
      { preset: '30d' as const },
      { types: ['theft', 'Robbery'], preset: '90d' as const },
    ]) {
      const fromHeader = await incidentCalls.countIncidents(early, { filters });
      expect(early.keeper.inMemory).toBe(false); // answered without loading the columns
      const reference = await incidentCalls.countIncidents(full, { filters });
      expect({ ...fromHeader, computedMs: 0 }).toEqual({ ...reference, computedMs: 0 });
    }
    expect(await incidentCalls.getArchiveSummary(early)).toEqual(await incidentCalls.getArchiveSummary(full));
    expect(early.keeper.inMemory).toBe(false);
    await early.close();
    await full.close();
  });

  it('says "updating" when the file changed since the header was saved', async () => {
    const other = new Database(f.file);
    other.prepare('DELETE FROM incidents WHERE cdid = (SELECT max(cdid) FROM incidents)').run();
    other.close();
    const early = new QueryService(f.db, { now: () => f.now, cacheFile, viewsMayLag: true });
    expect((await incidentCalls.countIncidents(early, { filters: {} }, 'view')).updating).toBe(true);
    expect(early.keeper.inMemory).toBe(false);
    // A result instead waits for the columns read from the store.
    const counted = await incidentCalls.countIncidents(early, { filters: {} });
    expect(counted.updating).toBeUndefined();
    expect(counted.total).toBe(referenceCounts(f.db, 'removed_at IS NULL').total);
    await early.close();
  });
});
