/**
 * What a v1 cursor chain must do to be believed (cursorStrategy.ts): stay inside the times asked,
 * move on, and bring no more than the area can plausibly hold. Anything else is the service's fault
 * (bad_response), refused before the page is kept.
 */
import { ApiError } from '../api/apiError';
import { CLOCK_SLACK_MS, DAY } from './constants';

/**
 * Every occurred_at of a page must lie in what was asked — from the query's `start` (for incidents,
 * set from the plan window; for history, the requested start) to its `end` (history) — and not in
 * the future beyond the clock slack. Anything else is the service's fault (bad_response), refused
 * before the page is kept: a 1970 or 2150 that was stored would sit in the archive as a real date.
 */
export function refuseTimesOutside(
  startAt: number | null,
  endAt: number | null,
  now: number,
  page: { incidents: { cdid: number }[]; occurredUtc: number[]; meta: { url: string } },
): void {
  const latest = Math.min(endAt ?? Infinity, now + CLOCK_SLACK_MS);
  page.occurredUtc.forEach((t, k) => {
    if (Number.isFinite(t) && t >= (startAt ?? -Infinity) && t <= latest) return;
    const asked =
      `${startAt === null ? 'any time' : new Date(startAt).toISOString()} to ` +
      `${endAt === null ? 'now' : new Date(endAt).toISOString()}`;
    const when = Number.isFinite(t) ? new Date(t).toISOString() : 'an unreadable time';
    const why = t > now + CLOCK_SLACK_MS ? 'in the future' : `outside what was asked (${asked})`;
    throw new ApiError(
      'bad_response',
      `The service's v1 page gave incident ${page.incidents[k]?.cdid ?? '?'} an occurred_at of ${when}, ${why}; the run stopped there.`,
      { url: page.meta.url, status: 200 },
    );
  });
}

/** Pages in a row that bring no incident the chain has not already given, before it is refused. */
export const MAX_PAGES_WITHOUT_NEWS = 3;

/**
 * The stated cap on what an area can plausibly hold: incidents a square mile a day (the simulator's
 * densest Midtown holds about 30, a real downtown fewer), and never less than a floor that a pile
 * (hundreds at one block in a day) fits under.
 */
export const PLAUSIBLE_PER_SQ_MI_DAY = 100;
export const MIN_CHAIN_BOUND = 10_000;

export type ChainBound = { max: number; why: string };

/**
 * The most incidents one cursor chain may bring before it is refused: ten times the run's own
 * estimate (the local file's density, as the live surface plans), or the stated cap for the circle
 * and the days asked, or MIN_CHAIN_BOUND — whichever is largest.
 */
export function chainBound(q: {
  radiusMi: number;
  startAt: number;
  endAt: number;
  plannedPages: number;
  pageRows: number;
}): ChainBound {
  const sqMi = Math.PI * q.radiusMi * q.radiusMi;
  const days = Math.max(1, (q.endAt - q.startAt) / DAY);
  const estimated = 10 * Math.max(1, q.plannedPages) * q.pageRows;
  const stated = Math.ceil(PLAUSIBLE_PER_SQ_MI_DAY * sqMi * days);
  const max = Math.max(estimated, stated, MIN_CHAIN_BOUND);
  const fmt = (n: number): string => n.toLocaleString('en-US');
  return {
    max,
    why:
      `brought more than ${fmt(max)} incidents for ${fmt(Math.round(sqMi * 10) / 10)} square miles over ` +
      `${Math.round(days)} days — more than the area can plausibly hold (ten times the estimate of ` +
      `${fmt(Math.max(1, q.plannedPages) * q.pageRows)}, ${PLAUSIBLE_PER_SQ_MI_DAY} a square mile a day, ` +
      `or ${fmt(MIN_CHAIN_BOUND)}), yet went on; nothing was marked removed`,
  };
}

/**
 * A cursor chain must move on: a next_cursor the chain has already sent (a circle), or pages that
 * bring nothing new MAX_PAGES_WITHOUT_NEWS times in a row, is the service's fault (bad_response),
 * refused before the page is kept, so a faulty or hostile server cannot spend the key's requests
 * for ever on one area. So is a chain that brings more new incidents than the area can plausibly
 * hold (`bound`, chainBound): the run fails, and a failed run marks nothing removed.
 */
export function createChainGuard(bound?: ChainBound) {
  let sent = new Set<string>();
  let cdids = new Set<number>();
  let stale = 0;
  const refuse = (url: string, why: string) =>
    new ApiError('bad_response', `The service's v1 pages ${why}; the run stopped there.`, {
      url,
      status: 200,
    });
  return {
    reset(): void {
      sent = new Set();
      cdids = new Set();
      stale = 0;
    },
    check(
      cursor: string | null,
      page: { incidents: { cdid: number }[]; nextCursor: string | null; meta: { url: string } },
    ): void {
      if (cursor !== null) sent.add(cursor);
      if (page.nextCursor === null) return;
      if (sent.has(page.nextCursor))
        throw refuse(page.meta.url, 'went round in a circle (a cursor it had sent before)');
      let news = 0;
      for (const i of page.incidents) {
        if (cdids.has(i.cdid)) continue;
        cdids.add(i.cdid);
        news++;
      }
      if (bound && cdids.size > bound.max) throw refuse(page.meta.url, bound.why);
      stale = news > 0 ? 0 : stale + 1;
      if (stale >= MAX_PAGES_WITHOUT_NEWS)
        throw refuse(
          page.meta.url,
          `brought no new incident ${MAX_PAGES_WITHOUT_NEWS} times in a row, yet went on`,
        );
    },
  };
}
