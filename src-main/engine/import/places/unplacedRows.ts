/**
 * An import's rows without coordinates, settled once the whole file is read: their local time is
 * read in the zone the mapping names, else the zone of most of the file's placed rows, else the
 * area's (the first area's centre), else UTC — a row without a place has no zone of its own.
 */
import type Database from 'better-sqlite3';
import type { ImportRowError } from '../../../../src-shared/exports';
import { wallIn, type Mapped } from '../mapping/apply';
import { normalize } from '../normalize';
import { zoneAt } from '../../time/zoneAt';
import type { UnplacedRow } from './unplaced';

/** The zone an import's unplaced rows are read in, and where it came from. */
export function unplacedZone(
  db: Database.Database,
  mappingZone: string | undefined,
  placedZones: Record<string, number>,
): { zone: string; from: 'mapping' | 'file' | 'area' | 'none' } {
  if (mappingZone) return { zone: mappingZone, from: 'mapping' };
  let best: string | null = null;
  for (const [zone, n] of Object.entries(placedZones))
    if (best === null || n > (placedZones[best] as number)) best = zone;
  if (best !== null) return { zone: best, from: 'file' };
  const area = db
    .prepare('SELECT center_lat AS lat, center_lon AS lon FROM areas ORDER BY id LIMIT 1')
    .get() as { lat: number; lon: number } | undefined;
  if (area) return { zone: zoneAt(area.lat, area.lon), from: 'area' };
  return { zone: 'UTC', from: 'none' };
}

/** The rows in their zone, checked as any row is (a time in the future is refused). */
export function settleUnplaced(
  list: readonly { row: number; mapped: Mapped }[],
  zone: string,
  notAfter: number,
): { rows: UnplacedRow[]; problems: ImportRowError[] } {
  const rows: UnplacedRow[] = [];
  const problems: ImportRowError[] = [];
  for (const { row, mapped: m } of list) {
    // An instant (the file gave its offset) is read as this zone's wall time; a wall time stays.
    const wall = m.occurred_utc !== undefined ? wallIn(zone, Date.parse(m.occurred_utc)) : m.occurred_local;
    const checked = normalize(
      {
        cdid: m.cdid,
        type: m.type,
        address: m.address,
        lat: 0,
        lon: 0,
        occurred_local: wall,
        timezone: zone,
      },
      { unneutralise: false, namespaced: true, notAfter },
    );
    if (!Array.isArray(checked)) {
      problems.push({ row, field: checked.field, message: checked.message });
      continue;
    }
    rows.push({
      cdid: m.cdid,
      type: m.type,
      address: m.address,
      occurredLocal: checked[7],
      timezone: zone,
      occurredUtc: checked[9],
      description: m.description ?? null,
      externalId: m.external_id ?? null,
      attributes: m.attributes,
      reason: m.unplaced as string,
      row,
    });
  }
  return { rows, problems };
}
