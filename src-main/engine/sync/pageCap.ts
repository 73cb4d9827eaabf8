/**
 * Whether a page with fewer than max_records rows is really all there is. The spec says max_records
 * may be 1 to 500, and also that "an earlier description of this endpoint states a fixed cap of 50
 * results per call": a server that still caps its answers (at 50, or anything below 500) would make
 * every page look complete — a sync that says done with a fraction of the incidents.
 *
 * A page of n rows proves the server answers at least n per call. So a short page is believed at
 * once when this base URL has answered a longer page before (`settings` key `apiPageMax <base URL>`,
 * the longest page seen, written when it grows), or when n is not a round number (a multiple of
 * 25: a cap is 50, 100, 250 — not 331; this spares a sparse area's first contact the check).
 * Otherwise the same query is asked once more in the other date order: all there is comes back the
 * same; a capped answer shows other incidents, and the run fails saying so instead of keeping an
 * incomplete mirror. The extra request is counted like any other.
 */
import { ApiError } from '../api/apiError';
import type { SearchQuery, SearchResult } from '../api/source';
import type { Db } from '../store/database';
import { MAX_RECORDS } from './constants';
import type { Logged, Requester } from './requester';

const keyOf = (baseUrl: string): string => `apiPageMax ${baseUrl}`;
/** Page lengths a cap could have: multiples of this. */
const ROUND = 25;

export type PageCapDeps = {
  db: Db;
  baseUrl: string;
  requester: Requester;
  /** Logs and counts an answer the run does not keep (radiusGuard's `discard`). */
  discard(page: Logged<SearchResult>): Promise<void>;
};

/** The longest page this base URL has answered (0 before any). */
export function readPageMax(db: Db, baseUrl: string): number {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(keyOf(baseUrl));
  const n = Number(row?.value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function sawPage(db: Db, baseUrl: string, n: number): void {
  if (n <= readPageMax(db, baseUrl)) return;
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(keyOf(baseUrl), String(n));
}

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
  if (n === 0 || n >= MAX_RECORDS || n % ROUND !== 0 || n < readPageMax(deps.db, deps.baseUrl)) {
    sawPage(deps.db, deps.baseUrl, n);
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
  sawPage(deps.db, deps.baseUrl, n);
}
