/**
 * The daily probe of a base URL's v1 surface, and the check that it describes the same incidents as
 * the live surface (DESIGN, "Incident identity": a v1 `id` is used as a cdid only after Blotter has
 * seen it equal the live cdid for the same incidents).
 *
 * A small sample from both: the live surface's 20 latest reports in a small circle at the area's
 * centre, and v1's first pages over the ground circle that contains it, from the oldest sample's
 * report time less the report lag. Every live incident must be in v1 under its own cdid, at the
 * same place and type, with an occurred_at at most the lag before its live date and not after it.
 * A 404 (or 501) means v1 is not live. Anything else — other ids, times that do not fit, too few
 * incidents to compare, no answer — keeps Blotter on the live surface, with the reason recorded in
 * words (shown in the area's sync status and `blotter status`). Probe requests go through the
 * requester: the same rate limiter and ledger as the sync.
 */
import { ApiError } from '../api/apiError';
import type { ApiIncident } from '../api/schemas';
import { coveringTile } from '../geo/tiles';
import type { Logger } from '../log';
import { hostOf } from '../api/outboundAddress';
import { incidentTime } from '../time/incidentTime';
import { localDayOf } from '../time/localDay';
import type { AreaRecord } from '../areas/areaStore';
import { CLOCK_SLACK_MS, DAY, MAX_RECORDS, MAX_REPORT_LAG_MS } from './constants';
import type { JobStore } from './jobStore';
import type { Requester } from './requester';
import { consistentTimes } from './surfaceApply';
import type { SurfaceRecord } from './serverProfile';
import { fromV1Type } from '../api/v1Types';

export type VerifyDeps = {
  requester: Requester;
  jobs: JobStore;
  baseUrl: string;
  now: () => number;
  log: Logger;
};

/** Live incidents in the sample. */
const SAMPLE = 20;
/** The sample circle, degrees (smaller when the area is). */
const SAMPLE_RADIUS = 0.01;
/** Miles per degree of latitude at most (the ground circle of this many miles per degree contains the degree circle). */
const MAX_MILES_PER_DEGREE = 69.5;
/** v1 pages read at most for the sample. */
const MAX_PAGES = 3;
/** Share of the live sample v1 may lack (an incident removed between the two requests). */
const MISSING_ALLOWED = 0.1;

type V1Row = { incident: ApiIncident; occurredUtc: number };

/** Probes v1 for this base URL and compares a sample; null when the live sample itself failed. */
export async function verifySurface(
  deps: VerifyDeps,
  area: AreaRecord,
  signal: AbortSignal,
): Promise<SurfaceRecord | null> {
  const { requester, now } = deps;
  const record = (state: SurfaceRecord['state'], reason: string): SurfaceRecord => ({
    baseUrl: deps.baseUrl,
    probedAt: now(),
    state,
    reason,
    history: null,
  });
  const tile = coveringTile(area.shape);
  const radius = Math.min(tile.radius, SAMPLE_RADIUS);
  const zone = 'UTC';
  // First, whether v1 answers at all: one small request. While the service has no v1 (today's
  // normal case) the daily probe costs this one request, not a live sample as well.
  try {
    const r = await requester.page(
      {
        lat: tile.lat,
        lon: tile.lon,
        radiusMi: radius * MAX_MILES_PER_DEGREE,
        start: new Date(now() - DAY).toISOString(),
        limit: 1,
      },
      signal,
    );
    log(deps, r.meta, r.incidents.length, r.logId);
  } catch (error) {
    return v1Failure(error, deps.baseUrl, record);
  }
  let live: ApiIncident[];
  try {
    const r = await requester.search(
      {
        lat: tile.lat,
        lon: tile.lon,
        radius,
        since: localDayOf(now() - 14 * DAY, zone),
        maxRecords: SAMPLE,
        sortOrder: 'DESC',
      },
      signal,
    );
    log(deps, r.meta, r.incidents.length, r.logId);
    live = r.incidents;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'cancelled') throw error;
    deps.log.info('v1 probe: the live sample failed; probing another time', { error });
    return null;
  }

  const reports = live.map((i) => incidentTime(i.date, i.lat, i.lon)?.occurredUtc ?? Number.NaN);
  const oldest = Math.min(now(), ...reports.filter(Number.isFinite));
  const v1 = new Map<number, V1Row>();
  const all: V1Row[] = [];
  try {
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const r = await requester.page(
        {
          lat: tile.lat,
          lon: tile.lon,
          radiusMi: radius * MAX_MILES_PER_DEGREE,
          start: new Date(oldest - MAX_REPORT_LAG_MS - CLOCK_SLACK_MS).toISOString(),
          limit: MAX_RECORDS,
          ...(cursor ? { cursor } : {}),
        },
        signal,
      );
      log(deps, r.meta, r.incidents.length, r.logId);
      r.incidents.forEach((incident, k) => {
        const row = { incident, occurredUtc: r.occurredUtc[k] ?? Number.NaN };
        v1.set(incident.cdid, row);
        all.push(row);
      });
      if (r.nextCursor === null) break;
      cursor = r.nextCursor;
    }
  } catch (error) {
    return v1Failure(error, deps.baseUrl, record);
  }
  return judge(live, reports, v1, all, record);
}

/** A v1 request's failure as the probe's verdict: absent (404/501) or unverified; cancels rethrown. */
function v1Failure(
  error: unknown,
  baseUrl: string,
  record: (state: SurfaceRecord['state'], reason: string) => SurfaceRecord,
): SurfaceRecord {
  if (!(error instanceof ApiError) || error.code === 'cancelled') throw error;
  if (error.code === 'not_found') {
    return record(
      'absent',
      `The service has no v1 surface at ${hostOf(baseUrl)} yet (${error.details.status ?? 404}); syncing on the live surface.`,
    );
  }
  return record(
    'unverified',
    `The v1 surface could not be checked (${error.message}); syncing on the live surface.`,
  );
}

/** The verdict on a sample: verified, or the first disagreement in words. */
export function judge(
  live: readonly ApiIncident[],
  reports: readonly number[],
  v1: ReadonlyMap<number, V1Row>,
  all: readonly V1Row[],
  record: (state: SurfaceRecord['state'], reason: string) => SurfaceRecord,
): SurfaceRecord {
  if (live.length === 0) {
    return record(
      'unverified',
      'The v1 surface answers, but there were no recent incidents near the area to compare with the live surface; syncing on the live surface.',
    );
  }
  let matched = 0;
  let missing = 0;
  const otherIds: string[] = [];
  const badTimes: string[] = [];
  const badFields: string[] = [];
  live.forEach((l, k) => {
    const v = v1.get(l.cdid);
    if (!v) {
      const twin = all.find(
        (a) =>
          a.incident.lat === l.lat &&
          a.incident.lon === l.lon &&
          a.incident.address === l.address &&
          fromV1Type(a.incident.type).toLowerCase() === l.type.toLowerCase(),
      );
      if (twin) otherIds.push(`live ${l.cdid} is v1 ${twin.incident.cdid}`);
      else missing++;
      return;
    }
    if (
      v.incident.lat !== l.lat ||
      v.incident.lon !== l.lon ||
      v.incident.type.toLowerCase() !== l.type.toLowerCase()
    ) {
      badFields.push(`${l.cdid}`);
      return;
    }
    const report = reports[k] ?? Number.NaN;
    if (!consistentTimes(report, v.occurredUtc)) {
      badTimes.push(`${l.cdid}: live ${l.date}, v1 ${new Date(v.occurredUtc).toISOString()}`);
      return;
    }
    matched++;
  });
  const n = live.length;
  const live1 = 'syncing on the live surface';
  if (otherIds.length > 0) {
    return record(
      'mismatch',
      `v1 ids are not the live cdids (${otherIds.length} of ${n} sample incidents, e.g. ${otherIds[0]}); ${live1}.`,
    );
  }
  if (badTimes.length > 0) {
    return record(
      'mismatch',
      `v1 occurred_at does not fit the live date for ${badTimes.length} of ${n} sample incidents (e.g. ${badTimes[0]}); ${live1}.`,
    );
  }
  if (badFields.length > 0) {
    return record(
      'mismatch',
      `v1 gives another place or type for ${badFields.length} of ${n} sample incidents (e.g. cdid ${badFields[0]}); ${live1}.`,
    );
  }
  if (matched === 0 || missing > n * MISSING_ALLOWED) {
    return record('mismatch', `v1 lacks ${missing} of ${n} sample incidents the live surface has; ${live1}.`);
  }
  return record(
    'verified',
    `v1 verified: ${matched} of ${n} sample incidents have the live cdid as their id and an occurred_at consistent with the live date.`,
  );
}

function log(
  deps: VerifyDeps,
  meta: { url: string; status: number; startedAt: number; durationMs: number },
  records: number,
  logId?: number,
): void {
  deps.jobs.logRequest(null, {
    url: meta.url,
    status: meta.status,
    at: meta.startedAt,
    durationMs: meta.durationMs,
    records,
    error: null,
    ...(logId !== undefined ? { logId } : {}),
  });
}
