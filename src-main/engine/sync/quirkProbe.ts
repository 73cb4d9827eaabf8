/**
 * Learning, once per base URL, what the server does with a `since` older than the plan window (the
 * spec: an empty answer; some servers: the whole window). Ask a root tile with a surely-stale since:
 * rows mean "serves the window". No rows: ask again with a since inside the window; rows now mean
 * "empty when stale". Two empty answers teach nothing (an empty tile); try another tile, then stay
 * on the safe side. Probe answers are not stored. Never throws: failures leave the quirk unknown.
 */
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { rootTiles } from '../geo/tiles';
import type { AreaRecord } from './areaStore';
import { MAX_RECORDS } from './constants';
import type { JobStore } from './jobStore';
import type { SyncLimits } from './planner';
import type { Requester } from './requester';
import { safeSince, staleSince, writeQuirk, type SinceBeforeWindow } from './windowStart';

type ProbeDeps = {
  db: Db;
  jobs: JobStore;
  requester: Requester;
  baseUrl: string;
  limits: SyncLimits;
  now: () => number;
  log: Logger;
};

const MAX_PROBE_TILES = 3;

export async function learnQuirk(
  deps: ProbeDeps,
  area: AreaRecord,
  signal: AbortSignal,
): Promise<SinceBeforeWindow> {
  const { requester, jobs, limits, now } = deps;
  const ask = async (lat: number, lon: number, radius: number, since: string): Promise<number> => {
    const r = await requester.search(
      { lat, lon, radius, since, maxRecords: MAX_RECORDS, sortOrder: 'ASC' },
      signal,
    );
    jobs.logRequest(null, {
      url: r.meta.url,
      status: r.meta.status,
      at: r.meta.startedAt,
      durationMs: r.meta.durationMs,
      records: r.incidents.length,
      error: null,
      logId: r.logId,
    });
    return r.incidents.length;
  };
  try {
    for (const t of rootTiles(area.shape).slice(0, MAX_PROBE_TILES)) {
      if ((await ask(t.lat, t.lon, t.radius, staleSince(now(), limits.windowDays))) > 0)
        return learned(deps, 'window');
      if ((await ask(t.lat, t.lon, t.radius, safeSince(now(), limits.windowDays))) > 0)
        return learned(deps, 'empty');
    }
  } catch (error) {
    deps.log.info('could not learn how the server treats an old since; staying inside the window', { error });
  }
  return 'unknown';
}

function learned(deps: ProbeDeps, value: 'window' | 'empty'): SinceBeforeWindow {
  writeQuirk(deps.db, deps.baseUrl, value, deps.now());
  deps.log.info('learned how the server treats a since older than the plan window', { value });
  return value;
}
