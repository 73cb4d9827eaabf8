/**
 * A data folder for the map journeys: synthetic incidents from bench/seed.ts plus one incident on
 * its own (north-west of Chicago) whose address is an HTML injection attempt; it must show as text.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedDatabase } from '../../bench/seed';

export const XSS_ADDRESS = '<img src=x onerror=alert(1)>';
export const LONE = { lat: 42.05, lon: -87.95 };

export function seedMapData(dataDir: string, count = 4000): { cdid: number } {
  const file = path.join(dataDir, 'blotter.sqlite');
  seedDatabase(file, { count, seed: 7, days: 60 });
  const db = new Database(file);
  try {
    const last = db.prepare('SELECT max(cdid) AS cdid FROM incidents').get() as { cdid: number };
    const cdid = last.cdid + 1000;
    db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
         time_flag, local_day, local_hour, local_weekday, description, description_fetched_at, first_seen, last_seen,
         removed_at, removed_reason)
       SELECT ?, 'Robbery', ?, ?, ?, link, date_raw, occurred_local, timezone, occurred_utc, time_flag, local_day,
         local_hour, local_weekday, NULL, NULL, first_seen, last_seen, NULL, NULL
       FROM incidents WHERE cdid = ?`,
    ).run(cdid, XSS_ADDRESS, LONE.lat, LONE.lon, last.cdid);
    return { cdid };
  } finally {
    db.close();
  }
}
