/**
 * An area's v1 safety score and weekly trend (`/v1/score`, every plan; `/v1/trends`, Pro and
 * Enterprise), fetched after a run on v1 when the stored ones are a day old (the service updates
 * the score daily), through the requester like every request. A refused call (the plan, or an
 * endpoint the service does not serve) stores null: the card then shows nothing for it. Stored in
 * area_scores as the service sent them (nothing is computed here).
 */
import type { AreaScoreView } from '../../../src-shared/sync';
import { ApiError } from '../api/apiError';
import { hasV1Extras } from '../api/v1Source';
import type { Db } from '../store/database';
import type { AreaRecord } from '../areas/areaStore';
import { DAY } from './constants';
import type { JobStore } from './jobStore';
import type { Requester } from './requester';
import { v1Circle } from './cursorStrategy';
import { atOnce, type InTurn } from './runTypes';

type Stored = { fetched_at: number; score: string | null; trends: string | null };

export function readAreaScore(db: Db, areaId: number): AreaScoreView | null {
  const r = db
    .prepare<[number], Stored>('SELECT fetched_at, score, trends FROM area_scores WHERE area_id = ?')
    .get(areaId);
  if (!r) return null;
  return {
    fetchedAt: r.fetched_at,
    score: r.score === null ? null : (JSON.parse(r.score) as AreaScoreView['score']),
    trends: r.trends === null ? null : (JSON.parse(r.trends) as AreaScoreView['trends']),
  };
}

/** Fetches and stores the area's score and trends when a day old or never fetched; never throws but cancels. */
export async function refreshAreaScore(
  deps: { db: Db; jobs: JobStore; requester: Requester; now: () => number; inTurn?: InTurn },
  area: AreaRecord,
  signal?: AbortSignal,
): Promise<void> {
  const held = readAreaScore(deps.db, area.id);
  if (held && deps.now() - held.fetchedAt < DAY) return;
  const c = v1Circle(area.shape);
  const ask = async <T>(call: () => Promise<T>): Promise<T | null> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'cancelled') throw error;
      return null;
    }
  };
  const score = await ask(async () => {
    const r = await deps.requester.call(
      (s, sig) => (hasV1Extras(s) ? s.score({ lat: c.lat, lon: c.lon, radiusMi: c.radiusMi }, sig) : none()),
      signal,
    );
    log(deps, r.meta, r.logId);
    const v = r.score;
    return {
      score: v.score,
      grade: v.grade,
      radiusMi: v.radius_mi,
      updatedAt: v.updated_at,
      breakdown: {
        violent: v.breakdown.violent,
        property: v.breakdown.property,
        qualityOfLife: v.breakdown.quality_of_life,
      },
    };
  });
  const trends = await ask(async () => {
    const r = await deps.requester.call(
      (s, sig) =>
        hasV1Extras(s)
          ? s.trends({ lat: c.lat, lon: c.lon, radiusMi: c.radiusMi, interval: 'week', window: 'P12W' }, sig)
          : none(),
      signal,
    );
    log(deps, r.meta, r.logId);
    return {
      interval: r.trends.interval,
      buckets: r.trends.buckets.map((b) => ({ start: b.start, end: b.end, count: b.count })),
    };
  });
  await (deps.inTurn ?? atOnce)(() =>
    deps.db
      .prepare(
        `INSERT INTO area_scores (area_id, fetched_at, score, trends) VALUES (?, ?, ?, ?)
       ON CONFLICT (area_id) DO UPDATE SET fetched_at = excluded.fetched_at, score = excluded.score, trends = excluded.trends`,
      )
      .run(
        area.id,
        deps.now(),
        score === null ? null : JSON.stringify(score),
        trends === null ? null : JSON.stringify(trends),
      ),
  );
}

function none(): never {
  throw new ApiError('not_found', 'This connection has no v1 surface.');
}

function log(
  deps: { jobs: JobStore },
  meta: { url: string; status: number; startedAt: number; durationMs: number },
  logId?: number,
): void {
  deps.jobs.logRequest(null, {
    url: meta.url,
    status: meta.status,
    at: meta.startedAt,
    durationMs: meta.durationMs,
    records: 1,
    error: null,
    ...(logId !== undefined ? { logId } : {}),
  });
}
