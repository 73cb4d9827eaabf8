/**
 * The live surface's part of a run (runner.ts drives it): the tile loop. A run is planned from the
 * area's tiles (runSetup.ts) or resumed; each pending job is asked page by page — through the radius
 * guard (radiusGuard.ts) and the page-cap proof (pageCap.ts) — and each page written with the job's
 * new state in one commit (applyPage.ts) until the job is settled or split; the run ends with
 * finalize (removals, lower bounds). A first backfill whose due v1 probe waited for its first page
 * (surfaceSelect.ts `defersProbe`) probes then and hands the run to v1 when v1 is verified.
 */
import { ApiError } from '../api/apiError';
import type { SearchQuery } from '../api/source';
import type { AreaRecord } from '../areas/areaStore';
import { CONCURRENCY, MAX_RECORDS } from './constants';
import { applyPage } from './applyPage';
import { tileOfJob, typesOfJob, type JobRow } from './jobStore';
import { provePageComplete } from './pageCap';
import { createRadiusGuard, type RadiusGuard } from './radiusGuard';
import { sentRadius } from './radiusEvidence';
import { knownTypes, prepareRun } from './runSetup';
import type { RunHooks, RunnerDeps, RunOptions, StepOutcome, SurfaceStrategy } from './runTypes';
import { MAX_LIVE_LEFT, probeSurface } from './surfaceSelect';
import { sendableSince } from './windowStart';

export function liveStrategy(
  deps: RunnerDeps,
  area: AreaRecord,
  opts: RunOptions,
  /** The v1 probe waits for the first page (surfaceSelect.ts `defersProbe`). */
  deferProbe: boolean,
): SurfaceStrategy {
  const { db, jobs, now, log } = deps;
  const start = deps.profile.get();
  let hooks: RunHooks;
  let guard: RadiusGuard;
  let probed = false;
  let types: string[] | null = null;
  const known = () => (types ??= knownTypes(db));

  /** The server knows no such type: nothing of it can exist. Settle the job, say so in the log. */
  async function settleUnknownType(job: JobRow, error: ApiError): Promise<void> {
    await hooks.commit(() =>
      jobs.updateJob(
        job.id,
        {
          since: job.since,
          mode: job.mode,
          ascLast: null,
          state: 'done',
          rows: 0,
          estimate: 0,
          error: error.message,
        },
        now(),
      ),
    );
    log.warn('type refused by the server; settled as empty', {
      types: typesOfJob(job),
      message: error.message,
    });
  }

  /** After the first page of a deferred probe: more than v1's own cost left — probe, and hand off if verified. */
  async function handsOff(runId: number, signal: AbortSignal): Promise<boolean> {
    if (!deferProbe || probed) return false;
    probed = true;
    if (jobs.pendingEstimate(runId) <= MAX_LIVE_LEFT) return false;
    return (await probeSurface(deps, area, signal)) === 'v1';
  }

  return {
    surface: 'live',
    concurrency: opts.concurrency ?? CONCURRENCY,
    prepare: () =>
      prepareRun(deps, area, opts.depth ?? 'auto', {
        maxRadius: start.radius.max,
        trustedRadius: start.radius.trusted,
      }),
    start(h) {
      hooks = h;
      // Circles wider than the server is known to search in full are checked first (radiusGuard.ts).
      guard = createRadiusGuard({
        jobs,
        requester: deps.requester,
        profile: deps.profile,
        shape: area.shape,
        runId: h.run.id,
        now,
        log,
        commit: (_runId, write) => h.commit(write),
      });
    },
    async step(job: JobRow, signal: AbortSignal): Promise<StepOutcome> {
      const pageCap = { profile: deps.profile, requester: deps.requester, discard: guard.discard };
      let current: JobRow | undefined = job;
      while (current && current.state === 'pending' && !signal.aborted) {
        const sent = sendableSince(current.since, now(), deps.limits.windowDays, start.sinceBeforeWindow);
        const tile = tileOfJob(current);
        const query: SearchQuery = {
          lat: tile.lat,
          lon: tile.lon,
          // Degree space until the server is seen to measure great-circle distance (radiusEvidence.ts).
          radius: sentRadius(tile, area.shape, guard.knowledge().reading),
          since: sent,
          maxRecords: MAX_RECORDS,
          sortOrder: current.mode === 'asc' ? 'ASC' : 'DESC',
          ...(typesOfJob(current) ? { types: guard.typesFor(current) } : {}),
        };
        let result;
        try {
          result = await guard.search(current, query, signal);
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'bad_input' && typesOfJob(current))) throw error;
          await settleUnknownType(current, error);
          return 'settled';
        }
        if (result === null) {
          current = jobs.job(current.id); // split to circles the server answers correctly
          continue;
        }
        // A short page is all there is only if the server does not cap its answers (pageCap.ts).
        await provePageComplete(pageCap, query, result, signal);
        const page = current;
        const applied = await hooks.commit(() =>
          applyPage(
            { ...hooks.writes, now: now(), knownTypes: known, windowDays: deps.limits.windowDays },
            page,
            sent,
            result,
          ),
        );
        hooks.paged(applied.counts, result.meta.durationMs);
        // Its first page showed a backfill v1 can make cheaper, and v1 answered the probe.
        if (await handsOff(hooks.run.id, signal)) return 'hand-off';
        current = jobs.job(current.id);
      }
      return 'settled';
    },
    async finish() {
      const fin = await hooks.finalize();
      return {
        removed: fin.removed,
        incomplete: fin.failedJobs.map((j) => j.error ?? 'incomplete'),
        fairLowerBound: fin.fairLowerBound,
      };
    },
  };
}
