/** The incident panel: every stored field of one incident, straight from the store. */
import type { IncidentDetail } from '../../../src-shared/incidentQueries';
import type { Db } from '../store/database';
import { EngineError } from '../errors';
import { importedFrom } from '../store/imports/importProvenance';
import { createIncidentRepo } from '../store/incidents/incidentRepo';

export function getIncident(db: Db, cdid: number): IncidentDetail {
  const row = createIncidentRepo(db).get(cdid);
  if (!row) throw new EngineError('not_found', `Incident ${cdid} is not in the local archive.`);
  const imported = row.source === 'import' ? importedFrom(db, cdid) : null;
  return {
    cdid: row.cdid,
    type: row.type,
    address: row.address,
    lat: row.lat,
    lon: row.lon,
    link: row.link,
    dateRaw: row.date_raw,
    occurredLocal: row.occurred_local,
    timezone: row.timezone,
    occurredUtc: new Date(row.occurred_utc).toISOString(),
    timeFlag: row.time_flag,
    description: row.description,
    descriptionFetchedAt: row.description_fetched_at,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    removedAt: row.removed_at,
    removedReason: row.removed_reason,
    source: row.source,
    subtype: row.subtype ?? null,
    ...(imported ? { importedFrom: imported } : {}),
  };
}
