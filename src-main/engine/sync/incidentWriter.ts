/**
 * Writes a page of API incidents through the incident repository (store/incidents: the identity
 * rule — new rows inserted, amended ones updated and revived, the rest only seen) and counts what
 * changed inside the area, returning the page's rows for the job's frontier. Runs inside the
 * caller's transaction.
 */
import type { ApiIncident } from '../api/schemas';
import type { Db } from '../store/database';
import { recordOf } from '../store/incidents/apiRecord';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import type { PageRow } from './frontier';

export type UpsertCounts = { new: number; updated: number };

export type IncidentWriter = {
  /** Writes rows; `counts` decides per row whether it counts towards the area's figures. */
  upsert(
    rows: readonly ApiIncident[],
    now: number,
    counts: (lat: number, lon: number) => boolean,
  ): { counts: UpsertCounts; page: PageRow[] };
  setDescription(cdid: number, description: string | null, now: number): void;
};

export function createIncidentWriter(db: Db): IncidentWriter {
  const repo = createIncidentRepo(db);
  return {
    upsert(rows, now, counts) {
      const c: UpsertCounts = { new: 0, updated: 0 };
      const page: PageRow[] = [];
      for (const r of rows) {
        const record = recordOf(r);
        page.push({
          cdid: r.cdid,
          lat: r.lat,
          lon: r.lon,
          type: r.type,
          utcMs: record.occurred_utc,
          zone: record.timezone,
        });
        const done = repo.upsertFromApi(record, now);
        if (done !== 'seen' && counts(r.lat, r.lon)) c[done === 'new' ? 'new' : 'updated']++;
      }
      return { counts: c, page };
    },
    setDescription: repo.setDescription,
  };
}
