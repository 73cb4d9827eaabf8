/**
 * The incidents an export writes, one object per row, read in keyset-paged chunks (cdid order) so
 * memory stays flat and the connection is never held busy between chunks. Filters: types (exact
 * names, case-insensitive), local days from/to (inclusive), an area (ground circle or polygon).
 * Removed incidents are included and flagged: the local file keeps what the API no longer serves.
 */
import { contains, shapeBox, type Shape } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { EXPORT_COLUMN_NAMES } from '../../../src-shared/exports';

export type ExportFilter = {
  types?: string[];
  from?: string;
  to?: string;
  area?: Shape;
  includeRemoved?: boolean;
};

export type ExportRow = {
  cdid: number;
  type: string;
  occurred_local: string;
  timezone: string;
  occurred_utc: string;
  date_raw: string;
  address: string;
  lat: number;
  lon: number;
  link: string;
  description: string | null;
  first_seen: string;
  last_seen: string;
  removed: boolean;
};

/** The export's columns, in order: one list for the engine, the renderer and the tests. */
export const EXPORT_COLUMNS = EXPORT_COLUMN_NAMES satisfies readonly (keyof ExportRow)[];

type Raw = Omit<ExportRow, 'occurred_utc' | 'first_seen' | 'last_seen' | 'removed'> & {
  occurred_utc: number;
  first_seen: number;
  last_seen: number;
  removed_at: number | null;
};

const iso = (ms: number): string => new Date(ms).toISOString();

export function* exportRows(db: Db, filter: ExportFilter = {}, chunk = 1000): Generator<ExportRow> {
  const where: string[] = ['i.cdid > @after'];
  const params: Record<string, unknown> = { limit: chunk };
  let from = 'incidents i';
  if (filter.types && filter.types.length > 0) {
    where.push(`lower(i.type) IN (${filter.types.map((_, k) => `@t${k}`).join(', ')})`);
    filter.types.forEach((t, k) => (params[`t${k}`] = t.toLowerCase()));
  }
  if (filter.from) {
    where.push('i.local_day >= @from');
    params.from = filter.from;
  }
  if (filter.to) {
    where.push('i.local_day <= @to');
    params.to = filter.to;
  }
  if (filter.includeRemoved === false) where.push('i.removed_at IS NULL');
  if (filter.area) {
    from = 'incidents_rtree r JOIN incidents i ON i.cdid = r.cdid';
    where.push(
      'r.min_lat >= @minLat AND r.max_lat <= @maxLat AND r.min_lon >= @minLon AND r.max_lon <= @maxLon',
    );
    Object.assign(params, shapeBox(filter.area));
  }
  const stmt = db.prepare<Record<string, unknown>, Raw>(
    `SELECT i.cdid, i.type, i.occurred_local, i.timezone, i.occurred_utc, i.date_raw, i.address, i.lat, i.lon, i.link,
       i.description, i.first_seen, i.last_seen, i.removed_at
     FROM ${from} WHERE ${where.join(' AND ')} ORDER BY i.cdid LIMIT @limit`,
  );
  let after = -1;
  for (;;) {
    const batch = stmt.all({ ...params, after });
    for (const r of batch) {
      if (filter.area && !contains(filter.area, r.lat, r.lon)) continue;
      const { removed_at, ...rest } = r;
      yield {
        ...rest,
        occurred_utc: iso(r.occurred_utc),
        first_seen: iso(r.first_seen),
        last_seen: iso(r.last_seen),
        removed: removed_at !== null,
      };
    }
    const last = batch[batch.length - 1];
    if (!last || batch.length < chunk) return;
    after = last.cdid;
  }
}
