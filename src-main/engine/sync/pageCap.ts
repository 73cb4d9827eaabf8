/**
 * Whether a page with fewer than max_records rows is really all there is. The spec says max_records
 * may be 1 to 500, and also that "an earlier description of this endpoint states a fixed cap of 50
 * results per call": a server that still caps its answers (at 50, or anything below 500) would make
 * every page look complete — a sync that says done with a fraction of the incidents.
 *
 * A page of n rows proves the server answers at least n per call. So a short page is believed at
 * once when this base URL has answered a longer page before (its profile's `pageMax`,
 * serverProfile.ts, the longest page seen, kept when it grows), or when n is not a round number (a multiple of
 * 25: a cap is 50, 100, 250 — not 331; this spares a sparse area's first contact the check).
 * Otherwise the same query is asked once more in the other date order: all there is comes back the
 * same; a capped answer shows other incidents, and the run fails saying so instead of keeping an
 * incomplete mirror. The extra request is counted like any other.
 */
import { ApiError } from '../api/apiError';
import type { SearchQuery, SearchResult } from '../api/source';
import { MAX_RECORDS } from './constants';
import type { Logged, Requester } from './requester';
import { sawPage, shortPageProven, type ProfileBook } from './serverProfile';

/** Page lengths a cap could have: multiples of this. */
const ROUND = 25;

export type PageCapDeps = {
  profile: ProfileBook;
  requester: Requester;
  /** Logs and counts an answer the run does not keep (radiusGuard's `discard`). */
  discard(page: Logged<SearchResult>): Promise<void>;
};

/**
 * Throws when `page` (the answer to `query`) is short only because the server caps its answers;
 * returns when it is full, or short and all there is.
 */
export async function provePageComplete(
  deps: PageCapDeps,
  query: SearchQuery,
  page: SearchResult,
  signal: AbortSignal,
): Promise<void> {
  // Distinct rows: a server may repeat one within a page.
  const n =
    page.incidents.length >= MAX_RECORDS ? MAX_RECORDS : new Set(page.incidents.map((i) => i.cdid)).size;
  if (n === 0 || n >= MAX_RECORDS || shortPageProven(deps.profile.get(), n, ROUND)) {
    await deps.profile.learn((p) => sawPage(p, n));
    return;
  }
  const other = await deps.requester.search(
    { ...query, sortOrder: query.sortOrder === 'ASC' ? 'DESC' : 'ASC' },
    signal,
  );
  await deps.discard(other);
  const held = new Set(page.incidents.map((i) => i.cdid));
  const more = other.incidents.filter((i) => !held.has(i.cdid)).length;
  if (more > 0) {
    throw new ApiError(
      'bad_response',
      `The service answered ${n} incidents for max_records=${query.maxRecords} but holds others for the same search ` +
        `(${more} more in the other date order): it caps its answers below what the spec allows (an earlier ` +
        `description said 50 a call), so Blotter cannot prove an area complete there. Nothing was marked complete.`,
      { url: other.meta.url, status: other.meta.status },
    );
  }
  await deps.profile.learn((p) => sawPage(p, n));
}
