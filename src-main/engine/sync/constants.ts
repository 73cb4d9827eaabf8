/**
 * The numbers the sync rests on, with the reasoning for each. Times are milliseconds.
 */
const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** The API's cap on rows per search (max_records may be 1..500). A full page means "maybe more". */
export const MAX_RECORDS = 500;

/**
 * The longest delay between an incident occurring and being reported. `since` filters on the hidden
 * occurred date while results sort by the report date, so a page boundary at report time R is safe
 * only for incidents that occurred after R − MAX_REPORT_LAG. The spec is silent; observed lags run
 * from minutes to about a day and a half, so we assume 36 hours.
 */
export const MAX_REPORT_LAG_MS = 36 * HOUR;

/**
 * Slack on top of the lag: a DST change shifts local clocks by an hour, and a tile near a zone line
 * may mix incidents of two neighbouring zones (an hour apart).
 */
export const CLOCK_SLACK_MS = 2 * HOUR;

/**
 * How the next page's `since` is chosen after a full page whose last row was reported at R (see
 * frontier.ts): the local day of R − lag − slack, minus one more day because we never assume whether
 * `since` is inclusive or exclusive. Everything that occurred on or before that day was reported
 * before R, so it was in the page; everything reported after R occurred after it, so it is in the
 * next page. This costs a re-fetch of roughly two days of a tile's volume per page, which the
 * planner weighs against splitting the tile (costModel.ts).
 */
export const SINCE_EXTRA_DAYS = 1;

/**
 * The widest circle a first backfill starts from (degrees, about 7 miles). The spec recommends 0.01°
 * or less because larger radii respond more slowly — a slower answer costs nothing against a rate
 * limit, while every extra circle costs a request and re-fetches its overlap days. So a backfill
 * starts from as few circles as cover the area and splits only where the first pages show that
 * paging would cost more (decide.ts, costModel.ts). A server that refuses, times out or silently
 * clamps a wide radius teaches a smaller one (radiusGuard.ts), kept per base URL.
 */
export const BACKFILL_MAX_RADIUS = 0.1;

/** Trailing refresh: late reports arrive within the lag; amendments and removals within two weeks. */
export const SHALLOW_REFRESH_DAYS = 3;
export const DEEP_REFRESH_DAYS = 14;
export const DEEP_REFRESH_EVERY_MS = 6 * HOUR;

/** Requests a sync keeps in flight at once (the rate limiter still decides when each may start). */
export const CONCURRENCY = 4;

/** A stuck page whose most common location holds this share of its rows is a point cluster. */
export const POINT_CLUSTER_SHARE = 0.5;

/**
 * A full page that moved on, whose most common location holds this share of its rows (50 of 500),
 * holds a pile: its density is priced without it (decide.ts `withoutPointPile`).
 */
export const POINT_PILE_SHARE = 0.1;

/** A run left unfinished (crash, kill, stop) is resumed if younger than this; else started afresh. */
export const RESUME_MAX_AGE_MS = 7 * DAY;

/**
 * Days recent enough that reports may still arrive: their ledger entries are provisional. Defined
 * in src-shared/provisional.ts, where the query service (which marks them) may import it too.
 */
export { PROVISIONAL_DAYS } from '../../../src-shared/provisional';

/**
 * A description on demand: how long one attempt may take before it counts as no answer. A timed-out
 * attempt is not repeated, so a host that swallows packets costs the person waiting this long once.
 */
export const ON_DEMAND_TIMEOUT_MS = 5_000;

/**
 * A description on demand: the longest wait for a rate slot or a 429's Retry-After. Beyond it the
 * answer is `rate_limited`, saying how long the service asked for, instead of a panel that hangs.
 */
export const ON_DEMAND_MAX_WAIT_MS = 10_000;
