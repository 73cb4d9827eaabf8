import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { incidentCalls } from './calls';
import { QueryService, type Reading } from './service';
import { GONE } from './snapshot';
import { deserializeSnapshot, serializeSnapshot } from './snapshotCache';
import { sameContent } from './snapshotCompare';
import { yieldToEventLoop } from '../eventLoop';
import { loadSnapshot } from './snapshotLoader';
import { closeFixture, nonZero, openFixture, referenceCounts, type Fixture } from './testFixtures';

const counts = async (service: QueryService, reading?: Reading) => {
  const r = await incidentCalls.countIncidents(service, { filters: { includeRemoved: true } }, reading);
  return { total: r.total, byType: nonZero(r.byType) };
};
const reference = (f: Fixture) => referenceCounts(f.db, '1');

describe('keeping the snapshot fresh', () => {
  let f: Fixture;
  beforeEach(() => {
    f = openFixture({ count: 1200, loadChunkRows: 100 });
  });
  afterEach(() => closeFixture(f));

  it('loads in chunks: every row, the same as the store', async () => {
    expect(await counts(f.service)).toEqual(reference(f));
    const snapshot = await f.service.snapshot();
    expect(snapshot.size).toBe(1200);
    expect(snapshot.sortedRows).toBe(1200);
  });

  it('sees its connection’s writes: inserts (in and out of cdid order), amendments, removals, deletions', async () => {
    await f.service.snapshot();
    const copy = f.db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
         time_flag, local_day, local_hour, local_weekday, first_seen, last_seen)
       SELECT ?, 'Brand new type', address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc, time_flag,
         local_day, local_hour, local_weekday, first_seen, last_seen FROM incidents WHERE cdid = ?`,
    );
    const [first, second, third] = f.db
      .prepare('SELECT cdid FROM incidents ORDER BY cdid LIMIT 3')
      .pluck()
      .all() as number[];
    const last = f.db.prepare('SELECT max(cdid) FROM incidents').pluck().get() as number;
    f.db.transaction(() => {
      copy.run(last + 10, first);
      copy.run((first as number) - 5, second); // below every known cdid: appended out of order
      f.db.prepare("UPDATE incidents SET type = 'Arson', address = 'NEW ADDRESS' WHERE cdid = ?").run(third);
      f.db.prepare('UPDATE incidents SET removed_at = 1 WHERE cdid = ?').run(second);
      f.db.prepare('DELETE FROM incidents WHERE cdid = ?').run(first);
    })();
    // Nobody reports these writes: the service's TEMP triggers saw them.
    expect(await counts(f.service)).toEqual(reference(f));
    const snapshot = await f.service.snapshot();
    expect(snapshot.unsortedRows).toBeGreaterThan(0);
    expect(snapshot.state[snapshot.rowOf(first as number)]).toBe(GONE);
    const text = await incidentCalls.countIncidents(f.service, { filters: { text: 'new address' } });
    expect(text.total).toBe(1);
    const list = await incidentCalls.listIncidents(f.service, {
      filters: { types: ['Brand new type'] },
      sort: { by: 'address', dir: 'asc' },
      offset: 0,
      limit: 10,
    });
    expect(list.rows.map((r) => r.cdid).sort()).toEqual([(first as number) - 5, last + 10].sort());
  });

  it('sees amendments made by an upsert (INSERT … ON CONFLICT DO UPDATE) without aborting the writer', async () => {
    await f.service.snapshot();
    const cdid = f.db.prepare('SELECT min(cdid) FROM incidents').pluck().get() as number;
    f.db
      .prepare(
        `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
           time_flag, local_day, local_hour, local_weekday, first_seen, last_seen)
         SELECT cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc, time_flag,
           local_day, local_hour, local_weekday, first_seen, last_seen FROM incidents WHERE cdid = ?
         ON CONFLICT (cdid) DO UPDATE SET address = 'UPSERTED ADDRESS'`,
      )
      .run(cdid);
    const text = await incidentCalls.countIncidents(f.service, { filters: { text: 'upserted' } });
    expect(text.total).toBe(1);
  });

  it('forgets writes rolled back, ignores last_seen-only updates, and takes reported cdids', async () => {
    const before = await counts(f.service);
    const version = (await f.service.snapshot()).version;
    expect(() =>
      f.db.transaction(() => {
        f.db.prepare("UPDATE incidents SET type = 'Arson'").run();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    f.db.prepare('UPDATE incidents SET last_seen = last_seen + 1').run();
    expect(await counts(f.service)).toEqual(before);
    expect((await f.service.snapshot()).version).toBe(version);
    const cdid = f.db.prepare('SELECT cdid FROM incidents LIMIT 1').pluck().get() as number;
    f.service.incidentsWritten([cdid]); // a writer may also say so itself
    expect((await f.service.snapshot()).version).not.toBe(version);
    expect(await counts(f.service)).toEqual(before);
  });

  it('reads everything again after a bulk change', async () => {
    await f.service.snapshot();
    f.db.prepare("UPDATE incidents SET type = 'Other' WHERE type = 'Theft'").run(); // a third of the rows
    expect(await counts(f.service)).toEqual(reference(f));
    f.db.prepare("UPDATE incidents SET type = 'Arson' WHERE cdid % 2 = 0").run();
    f.service.incidentsWritten(); // "something changed, read it all"
    expect(await counts(f.service)).toEqual(reference(f));
  });

  it('after a bulk change a view answers from the snapshot in place, marked updating, while the re-read runs; a result waits for it', async () => {
    const service = new QueryService(f.db, {
      now: () => f.now,
      cacheFile: null,
      loadChunkRows: 10, // 120 chunks: the re-read takes many turns of the event loop
      viewsMayLag: true,
    });
    await counts(service);
    f.db.prepare("UPDATE incidents SET type = 'Other' WHERE type = 'Theft'").run();
    service.incidentsWritten(); // a bulk write (an import): read it all again
    const order: string[] = [];
    const result = counts(service).finally(() => order.push('result'));
    const view = await incidentCalls.countIncidents(service, { filters: { includeRemoved: true } }, 'view');
    order.push('view');
    expect(view.total).toBe(1200);
    expect(view.updating).toBe(true); // from the snapshot in place, the re-read under way

    expect(service.keeper.reloading).not.toBeNull();
    expect(await result).toEqual(reference(f));
    expect(order).toEqual(['view', 'result']);
    const after = await incidentCalls.countIncidents(service, { filters: { includeRemoved: true } }, 'view');
    expect(after.updating).toBeUndefined();
    expect({ total: after.total, byType: nonZero(after.byType) }).toEqual(reference(f));
    await service.close();
  });

  it('notices commits by another connection, re-reads in the background and says so', async () => {
    let changes = 0;
    const service = new QueryService(f.db, {
      now: () => f.now,
      cacheFile: null,
      viewsMayLag: true,
      onExternalChange: () => changes++,
    });
    const before = await counts(service);
    const other = new Database(f.file);
    other.prepare("UPDATE incidents SET type = 'Vandalism' WHERE type = 'Robbery'").run();
    other.close();
    expect(await counts(service, 'view')).toEqual(before); // a view answers at once from the current snapshot …
    await service.keeper.reloading; // … while the store is read again
    expect(await counts(service, 'view')).toEqual(reference(f));
    expect(changes).toBe(1);
    await service.close();
  });

  it('a result asked while a re-read is under way waits for it, and for one queued behind it', async () => {
    const service = new QueryService(f.db, {
      now: () => f.now,
      cacheFile: null,
      loadChunkRows: 100,
      viewsMayLag: true,
    });
    await counts(service);
    const other = new Database(f.file);
    other.prepare("UPDATE incidents SET type = 'Vandalism' WHERE type = 'Robbery'").run();
    expect(await counts(service, 'view')).not.toEqual(reference(f)); // sees the commit: a re-read starts
    const first = service.keeper.reloading;
    expect(first).not.toBeNull();
    // Another commit while it reads: the re-read under way may have passed those rows.
    other.prepare("UPDATE incidents SET type = 'Arson' WHERE type = 'Theft'").run();
    other.close();
    const [view, result] = await Promise.all([
      counts(service, 'view'), // a view meanwhile: at once, from the snapshot before both commits
      counts(service), // a result
    ]);
    expect(result).toEqual(reference(f));
    expect(view).not.toEqual(reference(f));
    await service.close();
  });
});

describe('the saved snapshot', () => {
  let f: Fixture;
  beforeEach(() => {
    f = openFixture({ count: 900 });
  });
  afterEach(() => closeFixture(f));

  it('round-trips through its file format', async () => {
    const snapshot = await loadSnapshot(f.db);
    const copy = deserializeSnapshot(serializeSnapshot(snapshot, 'x'), 'x');
    expect(copy).not.toBeNull();
    expect(await sameContent(snapshot, copy!, yieldToEventLoop)).toBe(true);
    expect(copy!.addresses.values).toEqual(snapshot.addresses.values);
    expect(deserializeSnapshot(serializeSnapshot(snapshot, 'x'), 'other schema')).toBeNull();
    expect(deserializeSnapshot(Buffer.from('not a snapshot'), 'x')).toBeNull();
  });

  it('starts the next session from the file, then catches up with what changed while closed', async () => {
    const cacheFile = `${f.file}.snapshot`;
    const first = new QueryService(f.db, { now: () => f.now, cacheFile });
    const before = await counts(first);
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(cacheFile)).toBe(true);

    f.db.prepare("UPDATE incidents SET type = 'Shooting' WHERE type = 'Burglary'").run(); // while "closed"
    let changes = 0;
    const second = new QueryService(f.db, {
      now: () => f.now,
      cacheFile,
      loadChunkRows: 100,
      viewsMayLag: true,
      onExternalChange: () => changes++,
    });
    expect(await counts(second, 'view')).toEqual(before); // the saved snapshot answers a view first …
    expect(second.keeper.startedFrom).toBe('saved');
    expect(await counts(second)).toEqual(reference(f)); // … a result waits for the background read …
    expect(second.keeper.reloading).toBeNull();
    expect(await counts(second, 'view')).toEqual(reference(f)); // … which replaced it
    expect(changes).toBe(1);
    await second.close();

    const third = new QueryService(f.db, { now: () => f.now, cacheFile, onExternalChange: () => changes++ });
    expect(await counts(third)).toEqual(reference(f));
    await third.keeper.reloading;
    expect(changes).toBe(1); // nothing new this time
    await third.close();
  });

  it('ignores a damaged file', async () => {
    const cacheFile = `${f.file}.snapshot`;
    writeFileSync(cacheFile, 'BLOTSNP1garbage');
    const service = new QueryService(f.db, { now: () => f.now, cacheFile });
    expect(await counts(service)).toEqual(reference(f));
    expect(service.keeper.startedFrom).toBe('store');
    await service.close();
  });
});
