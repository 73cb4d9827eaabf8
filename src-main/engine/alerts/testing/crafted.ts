/**
 * Crafted archives for alert tests: a real SQLite file in a temp folder, areas, and incidents
 * written the way a sync commit writes them (source 'api', first_seen = the commit's time), each
 * commit evaluated in its own transaction like applyPage does.
 */
import { openDatabase, type Db } from '../../store/database';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { evaluateAlerts, type RaisedAlert } from '../evaluate';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** 2025-06-02T12:00Z, a Monday. */
export const T0 = Date.UTC(2025, 5, 2, 12);
export const CENTER = { lat: 41.88, lon: -87.63 };

export type Crafted = { db: Db; dir: TempDir; close(): void };

export function craftedArchive(): Crafted {
  const dir = makeTempDir('blotter-alerts-');
  const db = openDatabase(`${dir.path}/blotter.sqlite`);
  return {
    db,
    dir,
    close() {
      db.close();
      dir.remove();
    },
  };
}

/** A circle area of `radiusMi` around CENTER (or `at`); `backfilled` false for one still in its first backfill. */
export function addArea(
  db: Db,
  opts: { backfilled?: boolean; radiusMi?: number; at?: { lat: number; lon: number }; name?: string } = {},
): number {
  const { lat, lon } = opts.at ?? CENTER;
  const r = opts.radiusMi ?? 2;
  return Number(
    db
      .prepare(
        `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at, backfilled_at)
         VALUES (?, 'circle', ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(
        opts.name ?? 'Loop',
        lat,
        lon,
        r,
        lat - 1,
        lon - 1,
        lat + 1,
        lon + 1,
        opts.backfilled === false ? null : 1,
      ).lastInsertRowid,
  );
}

export type Crafty = {
  cdid: number;
  at: number;
  type?: string;
  lat?: number;
  lon?: number;
  address?: string;
  source?: 'api' | 'import';
};

let nextCdid = 1;
export const cdid = (): number => nextCdid++;

/** Local wall time in UTC for simplicity: these archives live in zone 'UTC'. */
export function insertIncident(db: Db, i: Crafty, firstSeen: number): void {
  const d = new Date(i.at);
  const local = d.toISOString().slice(0, 16);
  db.prepare(
    `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
       local_day, local_hour, local_weekday, first_seen, last_seen, source)
     VALUES (?, ?, ?, ?, ?, '', 'x', ?, 'UTC', ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    i.cdid,
    i.type ?? 'Burglary',
    i.address ?? '100 W MADISON ST',
    i.lat ?? CENTER.lat,
    i.lon ?? CENTER.lon,
    local,
    i.at,
    local.slice(0, 10),
    d.getUTCHours(),
    d.getUTCDay(),
    firstSeen,
    firstSeen,
    i.source ?? 'api',
  );
}

/** One sync commit: the incidents inserted at `now` and the evaluation, in one transaction. */
export function commit(db: Db, areaId: number, now: number, incidents: Crafty[]): RaisedAlert[] {
  return db.transaction(() => {
    for (const i of incidents) insertIncident(db, i, now);
    return evaluateAlerts(db, { areaId, runId: null, now, cdids: incidents.map((i) => i.cdid) });
  })();
}
