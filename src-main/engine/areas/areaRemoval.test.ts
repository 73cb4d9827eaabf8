import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { milesBetween } from '../../../src-shared/geo';
import { contains, type Shape } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { simOptions, startHarness, storedIn, type Harness } from '../sync/testing/harness';

let h: Harness<Simulator> | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const midtown = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };
/** Overlaps Midtown's east side. */
const east = { kind: 'circle' as const, lat: 40.7549, lon: -73.966, radiusMi: 0.45 };

const count = (db: Db, sql: string, ...args: number[]): number =>
  db.prepare<number[], { n: number }>(sql).get(...args)?.n ?? 0;
const apiIncidents = (db: Db): { cdid: number; lat: number; lon: number }[] =>
  db
    .prepare<[], { cdid: number; lat: number; lon: number }>(
      "SELECT cdid, lat, lon FROM incidents WHERE source = 'api'",
    )
    .all();
const rootTiles = (db: Db, areaId: number): { lat: number; lon: number; radius: number }[] =>
  db
    .prepare<[number], { lat: number; lon: number; radius: number }>(
      `SELECT DISTINCT j.lat, j.lon, j.radius FROM sync_jobs j JOIN sync_runs r ON r.id = j.run_id
       WHERE r.area_id = ? AND j.parent_id IS NULL`,
    )
    .all(areaId);
const syncState = (db: Db, areaId: number) => ({
  ledger: count(db, 'SELECT count(*) AS n FROM coverage WHERE area_id = ?', areaId),
  runs: count(db, 'SELECT count(*) AS n FROM sync_runs WHERE area_id = ?', areaId),
  jobs: count(
    db,
    'SELECT count(*) AS n FROM sync_jobs WHERE run_id IN (SELECT id FROM sync_runs WHERE area_id = ?)',
    areaId,
  ),
});

function addImported(db: Db, cdid: number, lat: number, lon: number): void {
  db.prepare(
    `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
       local_day, local_hour, local_weekday, first_seen, last_seen, source)
     VALUES (?, 'Theft', 'Imported St', ?, ?, '', '05/01/25 10:00 AM', '2025-05-01T10:00', 'America/New_York',
       1746108000000, '2025-05-01', 10, 4, 0, 0, 'import')`,
  ).run(cdid, lat, lon);
}

async function synced(shapes: Shape[]) {
  h = await startHarness(await startSimulator(simOptions()));
  const areas = shapes.map((shape, i) =>
    h!.service.areas.create({ name: `Area ${i + 1}`, shape }, h!.sim.clock.nowMs()),
  );
  const runs = await h.service.syncAreas(areas, h.conn);
  expect(runs.map((r) => r.state)).toEqual(shapes.map(() => 'done'));
  return { h, areas };
}

describe('deleting an area', () => {
  it('removes everything its tiles brought in when no other area covers it, but never imports', async () => {
    const { h, areas } = await synced([midtown]);
    const area = areas[0]!;
    const all = apiIncidents(h.db).length;
    const inShape = storedIn(h.db, midtown).size;
    // The tiles reach past the circle: the archive holds more than the area does.
    expect(all).toBeGreaterThan(inShape);
    expect(syncState(h.db, area.id).ledger).toBeGreaterThan(0);
    addImported(h.db, 9_000_000_001, midtown.lat, midtown.lon);

    expect(h.service.areas.remove(area.id, false)).toEqual({ deleted: true, incidentsRemoved: all });
    expect(apiIncidents(h.db)).toEqual([]);
    expect(h.db.prepare('SELECT cdid, source FROM incidents').all()).toEqual([
      { cdid: 9_000_000_001, source: 'import' },
    ]);
    expect(syncState(h.db, area.id)).toEqual({ ledger: 0, runs: 0, jobs: 0 });
    expect(count(h.db, 'SELECT count(*) AS n FROM sync_runs')).toBe(0);
    expect(count(h.db, 'SELECT count(*) AS n FROM sync_jobs')).toBe(0);
  });

  it('keeps what a remaining area covers — its shape and its tiles — and removes the rest', async () => {
    const { h, areas } = await synced([midtown, east]);
    const [gone, kept] = [areas[0]!, areas[1]!];
    const keptTiles = rootTiles(h.db, kept.id);
    expect(keptTiles.length).toBeGreaterThan(0);
    const inKeptTile = (lat: number, lon: number, slackMi = 0): boolean =>
      keptTiles.some((t) => Math.hypot(lat - t.lat, lon - t.lon) <= t.radius) ||
      (slackMi > 0 &&
        keptTiles.some((t) => milesBetween(t.lat, t.lon, lat, lon) <= t.radius * 69.1 + slackMi));
    const before = apiIncidents(h.db);
    const keptByRule = before.filter((c) => contains(east, c.lat, c.lon) || inKeptTile(c.lat, c.lon));
    const goneOnly = before.filter((c) => contains(midtown, c.lat, c.lon) && !contains(east, c.lat, c.lon));
    expect(goneOnly.length).toBeGreaterThan(0);
    const ledgerOfKept = syncState(h.db, kept.id);

    const { deleted, incidentsRemoved } = h.service.areas.remove(gone.id, false);
    const after = new Set(apiIncidents(h.db).map((c) => c.cdid));
    expect(deleted).toBe(true);
    expect(incidentsRemoved).toBe(before.length - after.size);
    // Nothing the remaining area covers was removed…
    expect(keptByRule.filter((c) => !after.has(c.cdid))).toEqual([]);
    // …and nothing is left that no area covers.
    const orphans = apiIncidents(h.db).filter(
      (c) => !contains(east, c.lat, c.lon) && !inKeptTile(c.lat, c.lon, 0.01),
    );
    expect(orphans).toEqual([]);
    expect(goneOnly.some((c) => !after.has(c.cdid))).toBe(true);
    expect(syncState(h.db, gone.id)).toEqual({ ledger: 0, runs: 0, jobs: 0 });
    expect(syncState(h.db, kept.id)).toEqual(ledgerOfKept);
  });

  it('keeps every incident with keepIncidents, still dropping the area’s ledger and jobs', async () => {
    const { h, areas } = await synced([midtown]);
    const all = apiIncidents(h.db).length;
    expect(h.service.areas.remove(areas[0]!.id, true)).toEqual({ deleted: true, incidentsRemoved: 0 });
    expect(apiIncidents(h.db)).toHaveLength(all);
    expect(syncState(h.db, areas[0]!.id)).toEqual({ ledger: 0, runs: 0, jobs: 0 });
    // Not merely unlinked from the area: gone.
    expect(count(h.db, 'SELECT count(*) AS n FROM sync_runs')).toBe(0);
    expect(count(h.db, 'SELECT count(*) AS n FROM sync_jobs')).toBe(0);
    expect(h.service.areas.remove(areas[0]!.id, false)).toEqual({ deleted: false, incidentsRemoved: 0 });
  });
});
