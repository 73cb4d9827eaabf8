/** What an area's view says of the surfaces: the service's v1 as last probed, the run's surface, the score. */
import type { AreaView } from '../../../src-shared/sync';
import type { Db } from '../store/database';
import { readAreaScore } from './surfaceScore';
import { surfaceOfRun, type Surface } from './surfaceSelect';
import { latestSurface, surfaceOf } from './surfaceStore';

export type SurfaceViews = Pick<AreaView, 'surface' | 'score'> & { runSurface: Surface | null };

export function surfaceViews(db: Db, areaId: number, runId: number | null): SurfaceViews {
  const rec = latestSurface(db);
  return {
    surface: rec
      ? {
          using: surfaceOf(rec),
          state: rec.state,
          reason: rec.reason,
          probedAt: rec.probedAt,
          history: rec.history,
        }
      : null,
    score: readAreaScore(db, areaId),
    runSurface: runId === null ? null : surfaceOfRun({ db }, runId),
  };
}
