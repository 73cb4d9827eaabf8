/**
 * Which surface a run asks. A run in progress (resumable) finishes on the surface it started on —
 * unless that surface has since been found gone. A new run uses v1 when this base URL's v1 surface
 * has been verified (surfaceStore.ts), probing it first when a probe is due (at most daily); the
 * live surface stays the fallback. An office-mode leader (deps.sink) stays on live for now.
 */
import type { AreaRecord } from './areaStore';
import { RESUME_MAX_AGE_MS } from './constants';
import type { RunnerDeps } from './runner';
import { verifySurface } from './surfaceVerify';
import { probeDue, readSurface, surfaceOf, writeSurface, type SurfaceRecord } from './surfaceStore';

export type Surface = 'live' | 'v1' | 'v1-history';

/** The surface of the area's run in progress, when it will be resumed; else null. */
export function resumableSurface(
  deps: Pick<RunnerDeps, 'db' | 'jobs' | 'now'>,
  areaId: number,
): Surface | null {
  const latest = deps.jobs.latestRun(areaId);
  if (!latest || latest.state === 'done') return null;
  if (deps.now() - latest.started_at >= RESUME_MAX_AGE_MS) return null;
  if (deps.jobs.jobs(latest.id, 'pending').length === 0) return null;
  return surfaceOfRun(deps, latest.id);
}

export function surfaceOfRun(deps: Pick<RunnerDeps, 'db'>, runId: number): Surface {
  const row = deps.db
    .prepare<[number], { surface: Surface }>('SELECT surface FROM sync_runs WHERE id = ?')
    .get(runId);
  return row?.surface ?? 'live';
}

export function setRunSurface(deps: Pick<RunnerDeps, 'db'>, runId: number, surface: Surface): void {
  deps.db.prepare('UPDATE sync_runs SET surface = ? WHERE id = ?').run(surface, runId);
}

/**
 * The surface for the area's next run: its run in progress's, else v1 when verified (probing when
 * due). A history request goes to v1 history when v1 is verified, else is refused by the caller.
 */
export async function pickSurface(
  deps: RunnerDeps,
  area: AreaRecord,
  signal: AbortSignal,
  opts: { history?: boolean; deferProbe?: boolean } = {},
): Promise<'live' | 'v1' | 'v1-history'> {
  // Office mode: a leader's pages go to PostgreSQL through its sink, which v1 runs do not use yet.
  if (deps.sink) return 'live';
  const resuming = resumableSurface(deps, area.id);
  // The opt-in history backfill (the service checked that v1 is verified and nothing is in progress).
  if (opts.history) return 'v1-history';
  let rec = readSurface(deps.db, deps.baseUrl);
  if (resuming === 'live') return 'live';
  if (resuming !== null && surfaceOf(rec) === 'v1') return resuming;
  if (resuming !== null) {
    // Its surface has gone since it started: that run cannot finish there; a new one starts on live.
    const latest = deps.jobs.latestRun(area.id);
    if (latest) {
      const why = 'The v1 surface is no longer available; the next sync runs on the live surface.';
      deps.db
        .transaction(() => {
          deps.db
            .prepare(
              "UPDATE sync_jobs SET state = 'failed', error = ? WHERE run_id = ? AND state = 'pending'",
            )
            .run(why, latest.id);
          deps.jobs.finishRun(latest.id, 'cancelled', deps.now(), why);
        })
        .immediate();
    }
  }
  if (probeDue(rec, deps.now())) {
    if (opts.deferProbe) return 'live';
    rec = await probeSurface(deps, area, signal);
  }
  return surfaceOf(rec);
}

/** Probes this base URL's v1 surface now and records what it found; the record as it stands. */
export async function probeSurface(
  deps: RunnerDeps,
  area: AreaRecord,
  signal: AbortSignal,
): Promise<SurfaceRecord | null> {
  const rec = readSurface(deps.db, deps.baseUrl);
  const probed = await verifySurface(deps, area, signal);
  if (probed) {
    writeSurface(deps.db, { ...probed, history: rec?.history ?? null });
    deps.log.info('probed the v1 surface', { state: probed.state, reason: probed.reason });
  }
  return readSurface(deps.db, deps.baseUrl);
}

/**
 * Whether a due probe waits for the first page of the area's first backfill (runner.ts): a
 * backfill that page shows to need at most MAX_LIVE_LEFT more requests cannot be made cheaper by
 * v1 (its probe and sample check alone cost two, and it needs a page), so the probe is not spent on
 * it and stays due for the next run; a larger one probes then and moves to v1 when verified.
 */
export function defersProbe(
  deps: Pick<RunnerDeps, 'db' | 'jobs' | 'now' | 'baseUrl' | 'sink'>,
  area: AreaRecord,
  opts: { history?: boolean } = {},
): boolean {
  if (deps.sink || opts.history || area.backfilledAt !== null) return false;
  if (resumableSurface(deps, area.id) !== null) return false;
  return probeDue(readSurface(deps.db, deps.baseUrl), deps.now());
}

/** More live requests than this after a first backfill's first page: v1 may save some. */
export const MAX_LIVE_LEFT = 2;
