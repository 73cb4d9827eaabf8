/**
 * Deleting an area. A sync keeps every row its tiles return, and tiles reach past the area's edge
 * (a circle around each square cell), so an area brings in more incidents than its shape holds.
 * The rule: deleting an area removes the incidents it brought in that no remaining area covers —
 * incidents from the API (source 'api') inside the deleted area's shape or one of its tiles that lie
 * neither inside a remaining area's shape nor one of its tiles. Imported incidents (source 'import')
 * are never removed this way, and `keepIncidents` keeps every incident. The area's coverage ledger,
 * sync runs and jobs go with it.
 *
 * A tile's footprint is the ground circle of its nominal radius (1° of arc ≈ 69.1 miles): it holds the
 * degree-space circle the search was asked about, so it covers what the server returned whichever
 * way the server measures. An area's tiles are the root tiles of its runs (children lie inside their
 * parent's circle).
 */
import {
  boxesOverlap,
  circleBox,
  contains,
  MILES_PER_DEGREE,
  milesBetween,
  shapeBox,
  unionBox,
  type Box,
  type Shape,
} from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { boxParams, inBoxSql, type BoxParams } from '../store/incidents/boxQuery';
import { createIncidentRepo } from '../store/incidents/incidentRepo';

type Tile = { lat: number; lon: number; radius: number };

/** A hair more than the nominal radius: rounding must never leave a returned row outside. */
const SLACK = 1.001;
const CELL_DEG = 0.05;

/** Tiles bucketed by a coarse grid, for "is this point inside any tile" over many points. */
class TileIndex {
  private readonly cells = new Map<string, { tile: Tile; miles: number }[]>();
  box: Box | null = null;

  constructor(tiles: Tile[]) {
    for (const tile of tiles) this.add(tile);
  }

  covers(lat: number, lon: number): boolean {
    const cell = this.cells.get(cellKey(Math.floor(lat / CELL_DEG), Math.floor(lon / CELL_DEG)));
    return cell?.some((t) => milesBetween(t.tile.lat, t.tile.lon, lat, lon) <= t.miles) ?? false;
  }

  private add(tile: Tile): void {
    const miles = tile.radius * MILES_PER_DEGREE * SLACK;
    const b = circleBox(tile.lat, tile.lon, miles);
    this.box = this.box ? unionBox(this.box, b) : b;
    for (let i = Math.floor(b.minLat / CELL_DEG); i <= Math.floor(b.maxLat / CELL_DEG); i++) {
      for (let j = Math.floor(b.minLon / CELL_DEG); j <= Math.floor(b.maxLon / CELL_DEG); j++) {
        const key = cellKey(i, j);
        const list = this.cells.get(key);
        if (list) list.push({ tile, miles });
        else this.cells.set(key, [{ tile, miles }]);
      }
    }
  }
}

const cellKey = (i: number, j: number): string => `${i}:${j}`;

/** The root tiles the area's runs asked about, or those of every other area. */
function tilesOf(db: Db, areaId: number, others: boolean): Tile[] {
  return db
    .prepare<[number], Tile>(
      `SELECT DISTINCT j.lat, j.lon, j.radius FROM sync_jobs j JOIN sync_runs r ON r.id = j.run_id
       WHERE j.parent_id IS NULL AND ${others ? 'r.area_id IS NOT NULL AND r.area_id != ?' : 'r.area_id = ?'}`,
    )
    .all(areaId);
}

/**
 * Removes the incidents the area brought in that no remaining area covers (see the rule above);
 * call inside the transaction that deletes the area, before its runs are deleted. Returns how many.
 */
export function removeOrphanedIncidents(
  db: Db,
  area: { id: number; shape: Shape },
  remaining: Shape[],
): number {
  const own = new TileIndex(tilesOf(db, area.id, false));
  const shapeBounds = shapeBox(area.shape);
  const reach = own.box ? unionBox(shapeBounds, own.box) : shapeBounds;
  const others = remaining.filter((s) => boxesOverlap(shapeBox(s), reach));
  const othersTiles = new TileIndex(tilesOf(db, area.id, true));
  const candidates = db
    .prepare<BoxParams, { cdid: number; lat: number; lon: number }>(
      `SELECT i.cdid, i.lat, i.lon FROM incidents i WHERE ${inBoxSql('i')} AND i.source = 'api'`,
    )
    .all(boxParams(reach));
  const incidents = createIncidentRepo(db);
  let removed = 0;
  for (const c of candidates) {
    if (!contains(area.shape, c.lat, c.lon) && !own.covers(c.lat, c.lon)) continue;
    if (others.some((s) => contains(s, c.lat, c.lon)) || othersTiles.covers(c.lat, c.lon)) continue;
    incidents.delete(c.cdid);
    removed++;
  }
  return removed;
}

/** The area's coverage ledger, runs and their jobs (request-log rows stay, unlinked from the run). */
export function removeSyncState(db: Db, areaId: number): void {
  db.prepare('DELETE FROM coverage WHERE area_id = ?').run(areaId);
  db.prepare('DELETE FROM sync_runs WHERE area_id = ?').run(areaId);
}
