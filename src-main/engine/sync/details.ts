/**
 * Descriptions come only from the detail endpoint, one request per incident. On demand (a user
 * opens an incident) they go first in the rate limiter's line; in the background (`--details`)
 * they queue behind searches. Incidents still lacking one are the persisted queue: a killed run
 * simply finds them again. A 404 (removed, or out of the window) is recorded so it is not retried.
 */
import { ApiError } from '../api/apiError';
import { contains } from '../../../src-shared/geo';
import { shapeBox } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { boxParams, inBoxSql, type BoxParams } from '../store/incidents/boxQuery';
import type { AreaRecord } from '../areas/areaStore';
import { CONCURRENCY } from './constants';
import type { IncidentWriter } from './incidentWriter';
import type { JobStore } from './jobStore';
import { PRIORITY_DETAIL, PRIORITY_SEARCH } from '../api/rateLimiter';
import type { Requester } from './requester';
import { atOnce, type InTurn } from './runTypes';

/**
 * Where a fetched description is kept (null: the service no longer has the incident): the folder's
 * own row (`localDescriptions`), or in office mode the office's row, back by the pull
 * (office/descriptionSink.ts). Chosen by syncService.ts from its office link.
 */
export type DescriptionSink = {
  keep(cdid: number, description: string | null, fetchedAt: number): Promise<void>;
};

/** A standalone folder's own incident row. */
export function localDescriptions(writer: IncidentWriter, inTurn: InTurn = atOnce): DescriptionSink {
  return { keep: (cdid, description, at) => inTurn(() => writer.setDescription(cdid, description, at)) };
}

type DetailDeps = {
  db: Db;
  jobs: JobStore;
  writer: IncidentWriter;
  requester: Requester;
  now: () => number;
  /** Where the description goes; the folder's own row when absent. */
  descriptions?: DescriptionSink;
  /** The folder's own row is written in its turn (store/writeTurns.ts): after an import's merge. */
  inTurn?: InTurn;
};

/** Fetches one description now; null when the service no longer has the incident. */
export async function fetchDetail(
  deps: DetailDeps,
  cdid: number,
  runId: number | null,
  signal?: AbortSignal,
  priority = PRIORITY_DETAIL,
): Promise<string | null> {
  // A negative id is another system's (an import's namespace, import/mapping/apply.ts): the API
  // never hears of it (DESIGN.md, "Incident identity").
  if (cdid < 1) return null;
  try {
    const r = await deps.requester.detail(cdid, signal, priority);
    if (!deps.descriptions) {
      await (deps.inTurn ?? atOnce)(() =>
        deps.db
          .transaction(() => {
            deps.writer.setDescription(cdid, r.incident.description, deps.now());
            logDetail(deps, runId, r);
          })
          .immediate(),
      );
      return r.incident.description;
    }
    logDetail(deps, runId, r);
    await deps.descriptions.keep(cdid, r.incident.description, deps.now());
    return r.incident.description;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') {
      await (deps.descriptions ?? localDescriptions(deps.writer, deps.inTurn)).keep(cdid, null, deps.now());
      return null;
    }
    throw error;
  }
}

function logDetail(
  deps: DetailDeps,
  runId: number | null,
  r: Awaited<ReturnType<Requester['detail']>>,
): void {
  deps.jobs.logRequest(runId, {
    url: r.meta.url,
    status: r.meta.status,
    at: r.meta.startedAt,
    durationMs: r.meta.durationMs,
    records: 1,
    error: null,
    logId: r.logId,
  });
}

/** Background: every incident of the area without a description yet. Returns how many were fetched. */
export async function fetchMissingDetails(
  deps: DetailDeps,
  area: AreaRecord,
  runId: number,
  signal?: AbortSignal,
): Promise<number> {
  const todo = deps.db
    .prepare<BoxParams, { cdid: number; lat: number; lon: number }>(
      `SELECT i.cdid, i.lat, i.lon FROM incidents i
       WHERE ${inBoxSql('i')}
         AND i.description_fetched_at IS NULL AND i.removed_at IS NULL AND i.cdid > 0 ORDER BY i.cdid`,
    )
    .all(boxParams(shapeBox(area.shape)))
    .filter((r) => contains(area.shape, r.lat, r.lon));
  let next = 0;
  let fetched = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length && !signal?.aborted) {
      const item = todo[next++];
      if (!item) return;
      await fetchDetail(deps, item.cdid, runId, signal, PRIORITY_SEARCH);
      fetched++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return fetched;
}
