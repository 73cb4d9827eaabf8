/**
 * Asking a job's circle only at a radius the server answers correctly (the server's profile holds
 * what is known per base URL: serverProfile.ts). Wraps the job's search:
 *
 * - A job wider than the learned maximum is split at once into the quadrant level that fits
 *   (children at the job's own since), without a request.
 * - A typed job is asked in the spelling of its types this server answers (typesSpelling.ts); a 400
 *   asks it again in the next spelling. Refused in every spelling, a group of types (decide.ts
 *   groupTypes) holds one the server does not know: each is asked on its own (a single unknown type
 *   is settled as empty by the runner).
 * - A 400 or a timeout for a radius above the trusted one: the server will not answer that wide —
 *   the maximum becomes half of it and the job is split the same way.
 * - A page whose own rows reach past the area's part of the job's cell in both measures proves the
 *   server searched it (radiusEvidence.ts): believed without a request, the radius they show
 *   trusted. Its rows may also show a great-circle server (learned, then circles are asked as
 *   ground circles: radiusEvidence.ts `sentRadius`).
 * - Else the first page with rows at a radius above the trusted one is checked before it is believed: a
 *   server that silently searched a smaller circle would make that page look complete. The check
 *   takes an incident I of the page and asks a circle centred due south (or north) of I at
 *   0.9999 × its radius, sorted by distance, descending — at the widest radius a backfill starts
 *   from (BACKFILL_MAX_RADIUS), so one check serves every later circle of this server (a 400 or a
 *   timeout there: at the job's own radius): a server that searched the whole
 *   circle returns I, or an incident at least as far in both degree and ground measure. (Due
 *   south, I's degree distance and its ground distance in degrees of arc agree, so the check holds
 *   whichever way the server measures.) It passes: the radius is trusted from then on. It fails:
 *   the server clamps; the farthest distance it did search becomes the maximum, the page is not
 *   written (its rows come again from the children), and the job is split to circles that fit.
 *
 * Every request made here goes through the requester (rate limiter, shared ledger) and is counted in
 * the run's requests and the request log. A kill at any moment leaves the job as it was or split;
 * what is learned is recorded in the profile at once (one store, through its ProfileBook).
 */
import type { SearchQuery, SearchResult } from '../api/source';
import { ApiError } from '../api/apiError';
import { degreesBetween, milesBetween, type Shape } from '../../../src-shared/geo';
import { EARTH_RADIUS_MI, RAD } from '../../../src-shared/geo';
import { MIN_RADIUS, type Tile } from '../geo/tiles';
import type { Logger } from '../log';
import type { JobRow, JobStore } from './jobStore';
import { tileOfJob, typesOfJob } from './jobStore';
import { splitLevels } from './decide';
import { BACKFILL_MAX_RADIUS, MAX_RECORDS } from './constants';
import type { Logged, Requester } from './requester';
import { areaReach, provenRadius, readingOf, rowsReach } from './radiusEvidence';
import {
  learnReading,
  learnTypesSpelling,
  limitRadius,
  trustRadius,
  type ProfileBook,
  type RadiusKnowledge,
} from './serverProfile';
import { nextTypesSpelling, spellTypes, type TypesSpelling } from './typesSpelling';

/** Radii are rounded up when sent (geo/tiles.ts); within this, two radii are the same. */
const SLACK = 1e-5;
/** Where the checked incident sits in the check circle: this share of the radius from its centre. */
const EDGE = 0.9999;
/** A learned maximum is this share of the farthest distance a clamping server did search. */
const CLAMP_MARGIN = 0.98;
const MILES_PER_DEGREE = EARTH_RADIUS_MI * RAD;
const DEEPEST_SPLIT = 8;

export type GuardDeps = {
  jobs: JobStore;
  requester: Requester;
  /** What is known of the server (serverProfile.ts): read at the start, learning recorded there. */
  profile: ProfileBook;
  shape: Shape;
  runId: number;
  now: () => number;
  log: Logger;
  /**
   * Where the run's writes go (job splits, request counts; office mode: the run's commit sink);
   * absent: this folder's file, at once. What is learned of the server goes to its profile.
   */
  commit?: <T>(runId: number, write: () => T) => Promise<T>;
};

export type RadiusGuard = {
  /** The job's page, or null when the job was split instead (re-read it). Other errors are thrown. */
  search(job: JobRow, query: SearchQuery, signal: AbortSignal): Promise<Logged<SearchResult> | null>;
  /** An answer the run does not use (logged and counted in the run's requests). */
  discard(page: Logged<SearchResult>): Promise<void>;
  knowledge(): RadiusKnowledge;
  /** The job's types as they are sent now (typesSpelling.ts); undefined for a job of every type. */
  typesFor(job: JobRow): string[] | undefined;
};

export function createRadiusGuard(d: GuardDeps): RadiusGuard {
  const deps = {
    ...d,
    commit: d.commit ?? (<T>(_runId: number, write: () => T) => Promise.resolve(write())),
  };
  const start = deps.profile.get();
  let known = start.radius;
  let spelling = start.typesSpelling;
  /** Per typed job, the spellings the server refused (400) in this run. */
  const refusedSpellings = new Map<number, TypesSpelling[]>();
  const spellingOf = (job: JobRow): TypesSpelling | null => {
    const refused = refusedSpellings.get(job.id) ?? [];
    return refused.length === 0 ? spelling : nextTypesSpelling(refused);
  };
  const above = (r: number, limit: number): boolean => r > limit + SLACK;
  /**
   * Whether a circle is within what the server is known to search in full: its radius, or the
   * reach of the area's part of it in both measures, is at most the trusted radius.
   */
  const covered = (circle: Pick<Tile, 'lat' | 'lon' | 'radius' | 'cell'>, trusted: number): boolean => {
    if (!above(circle.radius, trusted)) return true;
    const need = areaReach(circle, deps.shape);
    return need.degrees <= trusted && need.arc <= trusted;
  };

  const count = (r: Logged<SearchResult> | null, error?: ApiError): Promise<void> =>
    deps.commit(deps.runId, () => {
      if (r) {
        deps.jobs.logRequest(deps.runId, {
          url: r.meta.url,
          status: r.meta.status,
          at: r.meta.startedAt,
          durationMs: r.meta.durationMs,
          records: r.incidents.length,
          error: null,
          logId: r.logId,
        });
      }
      // A failed attempt was counted when it failed (the runner's onFailedAttempt); an answer here.
      if (!error) deps.jobs.addCounts(deps.runId, { requests: 1 });
    });

  async function learn(max: number, reason: string, radius: number): Promise<void> {
    known = (await deps.profile.learn((p) => limitRadius(p, max, reason))).radius;
    deps.log.info('learned the largest radius this server answers correctly', {
      radius,
      max: known.max,
      reason,
    });
  }

  /**
   * Replaces the job by its descendants at the first quadrant level whose circles fit `max`. A job
   * already at the smallest circle cannot be: the server searches less than Blotter can ask, and
   * the run fails saying so (marked split with no children, its cell would silently go unasked).
   */
  function resplit(job: JobRow, max: number): Promise<void> {
    const tile = tileOfJob(job);
    const levels = splitLevels(tile, deps.shape, DEEPEST_SPLIT);
    if (levels.length === 0) throw tooNarrow(`only about ${max.toFixed(5)}°`, tile.radius);
    const fits = levels.find((l) => l.every((t) => !above(t.radius, max))) ?? levels.at(-1) ?? [];
    return deps.commit(deps.runId, () => insertChildren(deps, job, fits));
  }

  /**
   * Checks the server searches circles of `radius` in full, from incident `i` (one it holds for the
   * query's since and types). `searched`: the farthest distance it did search when not.
   */
  async function checkAt(
    job: JobRow,
    query: SearchQuery,
    i: { cdid: number; lat: number; lon: number },
    radius: number,
    signal: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; searched: number }> {
    const south = i.lat - EDGE * radius >= -90;
    const centre = { lat: south ? i.lat - EDGE * radius : i.lat + EDGE * radius, lon: i.lon };
    const asked = {
      ...query,
      ...centre,
      radius,
      maxRecords: MAX_RECORDS,
      sortBy: 'distance',
      sortOrder: 'DESC',
    } as const;
    const answer = await deps.requester.search(asked, signal);
    await count(answer);
    // Each row's distance in the measure that is smaller: degrees, or ground miles in degrees of arc.
    const reach = (lat: number, lon: number): number =>
      Math.min(
        degreesBetween(lat, lon, centre.lat, centre.lon),
        milesBetween(centre.lat, centre.lon, lat, lon) / MILES_PER_DEGREE,
      );
    const needed = reach(i.lat, i.lon) - 1e-9;
    const farthest = answer.incidents.reduce((m, x) => Math.max(m, reach(x.lat, x.lon)), 0);
    if (answer.incidents.some((x) => x.cdid === i.cdid) || farthest >= needed) return { ok: true };
    deps.log.warn('the server searched a smaller circle than asked (a silent radius clamp)', {
      job: job.id,
      radius,
      farthest,
    });
    return { ok: false, searched: farthest };
  }

  /**
   * The check runs once at the widest radius a backfill starts from (or the job's, if wider), so one
   * check serves every later circle of this server; a 400 or a timeout there falls back to the
   * job's own radius. Returns the radius proven searched in full, or how far the server did search.
   */
  async function check(
    job: JobRow,
    query: SearchQuery,
    i: { cdid: number; lat: number; lon: number },
    signal: AbortSignal,
  ): Promise<{ ok: true; radius: number } | { ok: false; searched: number }> {
    const r = query.radius;
    const wide = Math.max(r, Math.min(BACKFILL_MAX_RADIUS, known.max ?? BACKFILL_MAX_RADIUS));
    if (above(wide, r)) {
      try {
        const v = await checkAt(job, query, i, wide, signal);
        return v.ok ? { ok: true, radius: wide } : v;
      } catch (error) {
        const refused = error instanceof ApiError && error.code === 'bad_input';
        const slow = error instanceof ApiError && error.details.timedOut === true;
        if (!(refused || slow) || signal.aborted) throw error;
        await learn(
          Math.max(r, wide / 2),
          `check at radius ${wide.toFixed(4)}° ${refused ? 'refused' : 'timed out'}`,
          wide,
        );
      }
    }
    const v = await checkAt(job, query, i, r, signal);
    return v.ok ? { ok: true, radius: r } : v;
  }

  return {
    knowledge: () => known,
    discard: (page) => count(page),
    typesFor(job) {
      const types = typesOfJob(job);
      return types ? spellTypes(types, spellingOf(job) ?? 'as-seen') : undefined;
    },
    async search(job, query, signal) {
      const r = query.radius;
      if (known.max !== null && above(r, known.max)) {
        await resplit(job, known.max);
        return null;
      }
      let page: Logged<SearchResult>;
      try {
        page = await deps.requester.search(query, signal);
      } catch (error) {
        const wide = above(r, known.trusted);
        const refused = error instanceof ApiError && error.code === 'bad_input';
        const slow = error instanceof ApiError && error.details.timedOut === true;
        const types = typesOfJob(job);
        const spelled = types ? spellingOf(job) : null;
        if (refused && spelled && !signal.aborted) {
          // The spelling (a typed job's circle is its parent's, which the server answered): the
          // job is asked again in the next one (typesSpelling.ts).
          refusedSpellings.set(job.id, [...(refusedSpellings.get(job.id) ?? []), spelled]);
          if (spellingOf(job) !== null) return null;
        }
        if (!wide && refused && types && types.length > 1 && !signal.aborted) {
          // A group of types refused: one of them is unknown to the server — ask each on its own.
          await deps.commit(deps.runId, () =>
            insertChildren(
              deps,
              job,
              [tileOfJob(job)],
              types.map((t) => [t]),
            ),
          );
          return null;
        }
        if (!wide || !(refused || slow) || signal.aborted) throw error;
        const max = Math.max(known.trusted, r / 2);
        await learn(
          max,
          refused ? `refused radius ${r.toFixed(4)}° (400)` : `radius ${r.toFixed(4)}° timed out`,
          r,
        );
        await resplit(job, max);
        return null;
      }
      const answered = typesOfJob(job) ? spellingOf(job) : null;
      if (answered && answered !== spelling) {
        await deps.profile.learn((p) => learnTypesSpelling(p, answered));
        spelling = answered;
        refusedSpellings.delete(job.id);
      }
      const circle = { lat: query.lat, lon: query.lon, radius: r, cell: tileOfJob(job).cell };
      if (known.reading !== 'great-circle' && readingOf(circle, page.incidents) === 'great-circle') {
        known = (await deps.profile.learn(learnReading)).radius;
        deps.log.info('the server measures the radius as great-circle distance', { radius: r });
      }
      if (covered(circle, known.trusted)) return page;
      if (page.incidents.length === 0) {
        // Nothing to check against: an empty answer at an unchecked radius is not believed; the
        // circles that fit the trusted radius are asked instead.
        await count(page);
        await resplit(job, known.trusted);
        return null;
      }
      // Rows reaching past the area's part of the circle in both measures prove it was searched.
      const proven = provenRadius(circle, deps.shape, page.incidents);
      if (proven !== null) {
        known = (await deps.profile.learn((p) => trustRadius(p, proven))).radius;
        return page;
      }
      const first = page.incidents[0] as { cdid: number; lat: number; lon: number };
      const verdict = await check(job, query, first, signal);
      if (verdict.ok) {
        known = (await deps.profile.learn((p) => trustRadius(p, verdict.radius))).radius;
        return page;
      }
      // The server did search as far as its farthest answer — the check's, or this page's own from
      // its centre (a check far from every incident may answer nothing) — perhaps below even the
      // spec's 0.01°: that is the radius to trust from now on.
      const own = rowsReach(circle, page.incidents);
      const searched = Math.min(r, Math.max(verdict.searched, Math.min(own.degrees, own.arc)));
      const max = searched * CLAMP_MARGIN;
      if (max < MIN_RADIUS) {
        // Less than the smallest circle (nothing beyond a circle's centre, not even around one of
        // its own incidents): any radius trusted now would be a guess that can make empty pages
        // look complete. Not kept as a learned maximum: the planner would tile the area with it.
        throw tooNarrow(searched === 0 ? 'almost no distance' : `only about ${searched.toFixed(5)}°`, r);
      }
      await learn(max, `searched only ${searched.toFixed(4)}° of ${r.toFixed(4)}°`, r);
      if (!above(r, max)) {
        // The job's own circle lies within what the server did search: its page stands.
        known = (await deps.profile.learn((p) => trustRadius(p, max))).radius;
        return page;
      }
      await count(page);
      await resplit(job, known.max ?? max);
      return null;
    },
  };
}

/** A server that searches less than Blotter's smallest circle: no area can be proven complete there. */
function tooNarrow(how: string, asked: number): ApiError {
  return new ApiError(
    'bad_response',
    `The service searches ${how} around a point (asked ${asked.toFixed(5)}°), less than Blotter's ` +
      `smallest circle, so this area cannot be mirrored completely from it (the spec's radius is in ` +
      `degrees; a server reading it as miles searches 69 times less).`,
  );
}

/**
 * The job becomes 'split'; its children (each tile × each group of types, by default the job's own
 * types) ask from the job's own since.
 */
function insertChildren(
  deps: Omit<GuardDeps, 'commit'>,
  job: JobRow,
  tiles: readonly Tile[],
  groups: readonly (string[] | null)[] = [typesOfJob(job)],
): void {
  const now = deps.now();
  for (const tile of tiles) {
    for (const types of groups) {
      deps.jobs.insertJob(
        deps.runId,
        {
          parentId: job.id,
          rootId: job.root_id ?? job.id,
          tile,
          types,
          since: job.since,
          estimate: 1,
          mode: 'asc',
          ascLastUtc: null,
        },
        now,
      );
    }
  }
  deps.jobs.updateJob(
    job.id,
    { since: job.since, mode: job.mode, ascLast: job.asc_last_utc, state: 'split', rows: 0, estimate: 0 },
    now,
  );
}
