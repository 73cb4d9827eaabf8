/**
 * Which surface a run asks — a decision, nothing more (the runner carries it out). A run in
 * progress (resumable) finishes on the surface it started on, unless that surface has since been
 * found gone: then it is abandoned and a new one starts. A new run uses v1 when this base URL's v1
 * surface has been verified (its profile, serverProfile.ts), probing it first when a probe is due
 * (at most daily); the live surface stays the fallback. Office leaders choose the same way: every
 * run commits through the office sink.
 */
import type { AreaRecord } from '../areas/areaStore';
import { RESUME_MAX_AGE_MS } from './constants';
import type { JobStore } from './jobStore';
import type { RunnerDeps, Surface } from './runTypes';
import { probeDue, probedSurface, surfaceOf, type ServerProfile } from './serverProfile';
import { verifySurface } from './surfaceVerify';

/** The surface of the area's run in progress, when it will be resumed; else null. */
export function resumableSurface(
  deps: { jobs: JobStore; now: () => number },
  areaId: number,
): Surface | null {
  const latest = deps.jobs.latestRun(areaId);
  if (!latest || latest.state === 'done') return null;
  if (deps.now() - latest.started_at >= RESUME_MAX_AGE_MS) return null;
  if (deps.jobs.jobs(latest.id, 'pending').length === 0) return null;
  return deps.jobs.surfaceOf(latest.id);
}

/** Why a run in progress on v1 cannot finish there. */
export const SURFACE_GONE = 'The v1 surface is no longer available; the next sync runs on the live surface.';

/**
 * use: the surface; probe: probe v1 first, then use what the profile says. `abandon`: the run in
 * progress cannot finish on its surface (the reason), so it is cancelled before a new one starts.
 */
export type SurfaceChoice = ({ kind: 'use'; surface: Surface } | { kind: 'probe' }) & { abandon?: string };

export function chooseSurface(s: {
  /** The opt-in history backfill (the service checked that v1 is verified and nothing is in progress). */
  history: boolean;
  resuming: Surface | null;
  profile: ServerProfile;
  now: number;
  /** A due probe waits for the first page (defersProbe). */
  deferProbe: boolean;
}): SurfaceChoice {
  if (s.history) return { kind: 'use', surface: 'v1-history' };
  if (s.resuming === 'live') return { kind: 'use', surface: 'live' };
  const known = surfaceOf(s.profile);
  if (s.resuming !== null && known === 'v1') return { kind: 'use', surface: s.resuming };
  const abandon = s.resuming !== null ? { abandon: SURFACE_GONE } : {};
  if (probeDue(s.profile, s.now))
    return s.deferProbe ? { kind: 'use', surface: 'live', ...abandon } : { kind: 'probe', ...abandon };
  return { kind: 'use', surface: known, ...abandon };
}

/** Probes this base URL's v1 surface now and records what it found; the surface new runs use. */
export async function probeSurface(
  deps: Pick<RunnerDeps, 'requester' | 'jobs' | 'baseUrl' | 'now' | 'log' | 'profile'>,
  area: AreaRecord,
  signal: AbortSignal,
): Promise<'live' | 'v1'> {
  const probed = await verifySurface(deps, area, signal);
  if (!probed) return surfaceOf(deps.profile.get());
  deps.log.info('probed the v1 surface', { state: probed.state, reason: probed.reason });
  return surfaceOf(await deps.profile.learn((p) => probedSurface(p, probed)));
}

/**
 * Whether a due probe waits for the first page of the area's first backfill (liveStrategy.ts): a
 * backfill that page shows to need at most MAX_LIVE_LEFT more requests cannot be made cheaper by
 * v1 (its probe and sample check alone cost two, and it needs a page), so the probe is not spent on
 * it and stays due for the next run; a larger one probes then and moves to v1 when verified.
 */
export function defersProbe(
  deps: Pick<RunnerDeps, 'jobs' | 'now' | 'profile'>,
  area: AreaRecord,
  opts: { history?: boolean } = {},
): boolean {
  if (opts.history || area.backfilledAt !== null) return false;
  if (resumableSurface(deps, area.id) !== null) return false;
  return probeDue(deps.profile.get(), deps.now());
}

/** More live requests than this after a first backfill's first page: v1 may save some. */
export const MAX_LIVE_LEFT = 2;
