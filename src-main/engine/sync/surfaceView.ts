/** What an area's view says of the surfaces: the service's v1 as last probed, the run's surface, the score. */
import type { AreaView } from '../../../src-shared/sync';
import type { Db } from '../store/database';
import type { JobStore } from './jobStore';
import type { Surface } from './runTypes';
import { latestSurface, surfaceOf } from './serverProfile';
import { readAreaScore } from './surfaceScore';

export type SurfaceViews = Pick<AreaView, 'surface' | 'score'> & { runSurface: Surface | null };

export function surfaceViews(db: Db, jobs: JobStore, areaId: number, runId: number | null): SurfaceViews {
  const rec = latestSurface(db);
  return {
    surface: rec
      ? {
          using: surfaceOf({ surface: rec }),
          state: rec.state,
          reason: rec.reason,
          probedAt: rec.probedAt,
          history: rec.history,
        }
      : null,
    score: readAreaScore(db, areaId),
    runSurface: runId === null ? null : jobs.surfaceOf(runId),
  };
}
