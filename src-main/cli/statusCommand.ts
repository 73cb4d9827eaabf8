/** `status`: what the data folder holds — areas, incidents inside each, ledger coverage, the last sync. */
import { contains, shapeBox } from '../../src-shared/geo';
import type { Db } from '../engine/store/database';
import { createAreaStore, type AreaRecord } from '../engine/sync/areaStore';
import { createJobStore } from '../engine/sync/jobStore';
import { one, type Parsed } from './args';
import { openDataFolder } from './dataFolder';
import { EXIT, type Io } from './io';

export const STATUS_FLAGS = { values: ['data-dir'], booleans: ['help'] };

const when = (ms: number | null): string =>
  ms === null ? 'never' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

export async function statusCommand(p: Parsed, io: Io): Promise<number> {
  const { dataDir, db } = openDataFolder(io, one(p, 'data-dir'));
  try {
    const totals = db
      .prepare<[], { n: number; removed: number; described: number }>(
        `SELECT count(*) AS n, count(removed_at) AS removed, count(description) AS described FROM incidents`,
      )
      .get() ?? { n: 0, removed: 0, described: 0 };
    const lines = [
      `Data folder: ${dataDir}`,
      `Incidents: ${totals.n} stored (${totals.removed} marked removed, ${totals.described} with descriptions)`,
    ];
    const areas = createAreaStore(db).list();
    const jobs = createJobStore(db);
    if (areas.length === 0) lines.push('Areas: none yet (sync --area "LAT,LON,RADIUS_MI" adds one).');
    for (const a of areas) {
      const inside = countInside(db, a);
      const cov = coverage(db, a.id);
      const run = jobs.latestRun(a.id);
      lines.push(
        `Area ${a.id} "${a.name}": ${describeShape(a)}; refresh every ${a.refreshMinutes} min${a.paused ? '; paused' : ''}`,
        `  incidents inside: ${inside.live} (plus ${inside.removed} removed)`,
        cov.days === 0
          ? '  coverage: nothing proven yet'
          : `  coverage: ${cov.tiles} tiles; ${cov.complete} tile-days complete, ${cov.provisional} provisional, ${cov.saturated} split; days ${cov.first} to ${cov.last}`,
        run
          ? `  last sync: ${when(run.started_at)} ${run.kind}, ${run.state}${run.finished_at ? ` at ${when(run.finished_at)}` : ''}: ` +
              `${run.requests} requests, ${run.new_count} new, ${run.updated_count} updated, ${run.removed_count} removed` +
              `${run.error ? ` — ${run.error}` : ''}`
          : '  last sync: never',
      );
    }
    io.out(lines.join('\n') + '\n');
    return EXIT.ok;
  } finally {
    db.close();
  }
}

function describeShape(a: AreaRecord): string {
  if (a.shape.kind === 'circle') return `circle around ${a.shape.lat},${a.shape.lon}, ${a.shape.radiusMi} mi`;
  return `polygon of ${a.shape.points.length} points`;
}

function countInside(db: Db, a: AreaRecord): { live: number; removed: number } {
  const b = shapeBox(a.shape);
  let live = 0;
  let removed = 0;
  const rows = db
    .prepare<[number, number, number, number], { lat: number; lon: number; removed_at: number | null }>(
      `SELECT i.lat, i.lon, i.removed_at FROM incidents_rtree r JOIN incidents i ON i.cdid = r.cdid
       WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lon >= ? AND r.max_lon <= ?`,
    )
    .iterate(b.minLat, b.maxLat, b.minLon, b.maxLon);
  for (const r of rows) {
    if (!contains(a.shape, r.lat, r.lon)) continue;
    if (r.removed_at === null) live++;
    else removed++;
  }
  return { live, removed };
}

function coverage(db: Db, areaId: number) {
  const r = db
    .prepare<
      [number],
      {
        tiles: number;
        days: number;
        complete: number;
        provisional: number;
        saturated: number;
        first: string;
        last: string;
      }
    >(
      `SELECT count(DISTINCT tile) AS tiles, count(DISTINCT day) AS days,
         sum(status = 'complete') AS complete, sum(status = 'provisional') AS provisional, sum(status = 'saturated') AS saturated,
         min(day) AS first, max(day) AS last
       FROM coverage WHERE area_id = ?`,
    )
    .get(areaId);
  return r ?? { tiles: 0, days: 0, complete: 0, provisional: 0, saturated: 0, first: '', last: '' };
}
