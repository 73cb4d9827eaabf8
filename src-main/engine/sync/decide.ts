/**
 * What a job does after a page: finish, ask the next page, split (space or types), or give up. Pure:
 * the caller writes the outcome with the page in one transaction.
 *
 * - A page with fewer than max_records rows is complete for everything after the job's `since`.
 * - A full ascending page moves the frontier (frontier.ts) — or, when the cost model says so, splits
 *   the tile one to three quadrant levels deep; the children start at the new frontier, since the
 *   page already holds everything up to its last report time R for the whole parent circle.
 * - The last page of a tile is asked in descending order ("tail") when what is left fits in one
 *   page: it holds everything reported after its lowest row, so if that row was reported before R
 *   the two pages meet and the tile is complete — without re-fetching the overlap days an ascending
 *   page would. If they do not meet, the job goes on ascending.
 * - When a stretch of days alone fills a page the tile is stuck at its `since`:
 *   - rows spread over space: split into quadrants (children start at the same since);
 *   - rows piled on one point (more than 500 at one address in a few days — spatial splitting cannot
 *     separate them): split by type, one job per type;
 *   - one type at one point: ask for the same `since` in descending order; if it meets the
 *     ascending page the pile is complete; if not, the rows around the pile fill the descending
 *     page, so the tile is split in space (a smaller circle holds fewer of them) and each part asked
 *     again; only a tile too small to split with the ends still apart fails (completeness cannot
 *     be proven with this API).
 */
import { CRIME_TYPES } from '../../../src-shared/crimeTypes';
import type { Shape } from '../../../src-shared/geo';
import { canSplit, inTile, splitTile, type Tile } from '../geo/tiles';
import { addDays, dayStartUtc, localDayOf } from '../time/localDay';
import { offsetAt } from '../time/wallToInstant';
import { DAY, MAX_RECORDS, POINT_CLUSTER_SHARE, POINT_PILE_SHARE } from './constants';
import { cheapestSplit, decideSplit, TAIL_ROWS, type ShareNode } from './costModel';
import { pageFacts, type PageRow } from './frontier';
import { NO_SINCE } from './windowStart';

export type JobMode = 'asc' | 'tail' | 'desc';

export type JobView = {
  tile: Tile;
  types: string[] | null;
  since: string;
  mode: JobMode;
  ascLastUtc: number | null;
};

/** How the job (or a child) asks next. */
export type Next = { since: string; mode: JobMode; ascLastUtc: number | null; estimate: number };

export type Outcome =
  | { kind: 'done' }
  | { kind: 'continue'; next: Next; proven: string | null }
  | { kind: 'split-space'; children: { tile: Tile; next: Next }[]; proven: string | null }
  | {
      kind: 'split-types';
      /** Every type asked about. */
      types: string[];
      /** One child job per group (types asked together, comma-separated): see groupTypes. */
      groups: string[][];
      next: Next;
    }
  | { kind: 'failed'; reason: string };

/** How many levels of quadrants a split may jump at once (4, 16 or 64 children). */
const MAX_SPLIT_LEVELS = 3;

export type DecideContext = {
  shape: Shape;
  now: number;
  /** Types seen in the local file, read only when a page must be split by type. */
  knownTypes?: () => readonly string[];
};

/** `rows` in the order the server sent them (ascending, or descending for tail and desc pages). */
export function decide(job: JobView, rows: readonly PageRow[], ctx: DecideContext): Outcome {
  if (rows.length < MAX_RECORDS) return { kind: 'done' };
  if (job.mode !== 'asc') return decideDescending(job, rows, ctx);
  // Asked with no since (the window's own start): the page stands for a since of its first day
  // (the oldest report's, partial — the window may start inside it). It moves on only past that day,
  // so the next since is inside the window; a page that fills before then is split in space (or
  // by type), its parts again asked with no since.
  const first = rows[0] as PageRow;
  const since = job.since === NO_SINCE ? localDayOf(first.utcMs, first.zone) : job.since;
  const f = pageFacts(rows, since);
  const levels = splitLevels(job.tile, ctx.shape, MAX_SPLIT_LEVELS);
  // A page that moved on while holding a pile at one point (a stadium's day) prices paging against
  // splitting from the rows around it: the pile is one event, not a rate over the days still to
  // fetch, and no quadrant split separates a point. Counted in, it made the cost model split a tile
  // in space at some times of day (strangerServer.test.ts; the sweep over a day in bench/README.md).
  const spread = f.advanced ? withoutPointPile(rows, f.topPointShare) : rows;
  const shares = levels.map((tiles) =>
    tiles.map((t) => spread.filter((r) => inTile(t, r.lat, r.lon)).length / spread.length),
  );
  const perDay = spread.length / f.spanDays;
  const R = f.last.utcMs;
  // A part asked with no since goes ascending: its first page shows its own first day (the ledger).
  const next = (since: string, expectedRows: number, estimate: number): Next =>
    expectedRows <= TAIL_ROWS && since !== NO_SINCE
      ? { since, mode: 'tail', ascLastUtc: R, estimate: 1 }
      : { since, mode: 'asc', ascLastUtc: R, estimate: Math.max(1, Math.ceil(estimate)) };

  // Splits may stop at a different depth in each quadrant (costModel.ts `tree`).
  const treeTiles: Tile[] = [];
  const tree = shareTree(job.tile, ctx.shape, spread, spread.length, MAX_SPLIT_LEVELS, treeTiles);
  const cutOf = (cut: number[] | undefined, level: number): { tiles: Tile[]; shares: number[] } =>
    cut
      ? { tiles: cut.map((id) => treeTiles[id] as Tile), shares: cut.map((id) => shareOf(tree, id)) }
      : { tiles: levels[level - 1] ?? [], shares: shares[level - 1] ?? [] };

  if (f.advanced) {
    const remainingDays = Math.max(0, (ctx.now - R) / DAY);
    const choice = decideSplit({
      perDay,
      remainingDays,
      overlapDays: f.overlapDays,
      levels: shares,
      tree,
    });
    if (choice.action === 'split') {
      const { tiles, shares: levelShares } = cutOf(choice.cut, choice.level);
      const children = tiles.map((tile, i) => {
        const rowsLeft = perDay * (levelShares[i] ?? 0) * remainingDays * 1.1;
        return { tile, next: next(f.next, rowsLeft, rowsLeft / 400) };
      });
      return { kind: 'split-space', children, proven: f.next };
    }
    return {
      kind: 'continue',
      next: next(f.next, perDay * remainingDays * 1.1, choice.estimate),
      proven: f.next,
    };
  }
  const pile = f.topPointShare >= POINT_CLUSTER_SHARE;
  if (!pile && levels.length > 0) {
    const from = dayStartUtc(addDays(since, 1), f.last.zone);
    const remainingDays = Math.max(1, (ctx.now - from) / DAY);
    const best = cheapestSplit({ perDay, remainingDays, overlapDays: f.overlapDays, levels: shares, tree });
    const { tiles, shares: levelShares } = cutOf(best.cut, best.level);
    const children = tiles.map((tile, i) => {
      const rowsLeft = perDay * (levelShares[i] ?? 0) * remainingDays * 1.1;
      return { tile, next: next(job.since, rowsLeft, rowsLeft / 400) };
    });
    return { kind: 'split-space', children, proven: null };
  }
  if (job.types === null || job.types.length > 1) {
    // A group of types still piled up at one point: one job per type; else groups that fit a page.
    const types = job.types ?? typesToSplit(rows, ctx.knownTypes?.());
    const remainingDays = Math.max(1, (ctx.now - dayStartUtc(addDays(since, 1), f.last.zone)) / DAY);
    const groups = job.types ? types.map((t) => [t]) : groupTypes(rows, types, f.spanDays, remainingDays);
    return {
      kind: 'split-types',
      types,
      groups,
      next: { since: job.since, mode: 'asc', ascLastUtc: R, estimate: 1 },
    };
  }
  return {
    kind: 'continue',
    next: { since: job.since, mode: 'desc', ascLastUtc: R, estimate: 1 },
    proven: null,
  };
}

/**
 * The page's rows without its most common point when that point holds at least POINT_PILE_SHARE of
 * them (a pile), else all of them; all of them too when nothing else is left.
 */
export function withoutPointPile(rows: readonly PageRow[], topPointShare: number): readonly PageRow[] {
  if (topPointShare < POINT_PILE_SHARE) return rows;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(`${r.lat},${r.lon}`, (counts.get(`${r.lat},${r.lon}`) ?? 0) + 1);
  const top = [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const spread = rows.filter((r) => `${r.lat},${r.lon}` !== top);
  return spread.length > 0 ? spread : rows;
}

/**
 * A descending page meets the ascending one when its lowest row was reported before the ascending
 * page ended. Near a DST fall-back our instants for the repeated hour may be an hour early, so there
 * the pages must overlap by an hour more.
 */
function decideDescending(job: JobView, rows: readonly PageRow[], ctx: DecideContext): Outcome {
  const lowest = rows.reduce((a, b) => (b.utcMs < a.utcMs ? b : a));
  const margin =
    job.ascLastUtc !== null &&
    (nearFallBack(lowest.utcMs, lowest.zone) || nearFallBack(job.ascLastUtc, lowest.zone))
      ? HOUR
      : 0;
  if (job.ascLastUtc !== null && lowest.utcMs + margin < job.ascLastUtc) return { kind: 'done' };
  if (job.mode === 'tail') {
    return {
      kind: 'continue',
      next: { since: job.since, mode: 'asc', ascLastUtc: job.ascLastUtc, estimate: 2 },
      proven: null,
    };
  }
  // One type piled at a point and the two ends do not meet: the rows around the pile after it fill
  // the descending page. A smaller circle holds fewer of them — split in space (children ask from
  // the same since) until the tile cannot be split; only then is the spot given up.
  const quadrants = splitLevels(job.tile, ctx.shape, 1)[0] ?? [];
  if (quadrants.length > 0) {
    return {
      kind: 'split-space',
      children: quadrants.map((tile) => ({
        tile,
        next: { since: job.since, mode: 'asc' as const, ascLastUtc: null, estimate: 1 },
      })),
      proven: null,
    };
  }
  return {
    kind: 'failed',
    reason:
      `More than ${2 * MAX_RECORDS} incidents of type ${job.types?.join(', ') ?? 'any'} at one place within a few days ` +
      `(${job.since === NO_SINCE ? 'from the window start' : `since ${job.since}`}): the API cannot page through them, so this spot may be incomplete.`,
  };
}

const HOUR = 3_600_000;

function nearFallBack(utcMs: number, zone: string): boolean {
  return offsetAt(zone, utcMs - 2 * HOUR) > offsetAt(zone, utcMs + 2 * HOUR);
}

/** The tile's descendants one, two, … levels down (quadrants of quadrants), pruned to the area. */
export function splitLevels(tile: Tile, shape: Shape, max: number): Tile[][] {
  const levels: Tile[][] = [];
  let current = [tile];
  for (let k = 0; k < max; k++) {
    if (!current.every(canSplit)) break;
    current = current.flatMap((t) => splitTile(t, shape));
    if (current.length === 0) break;
    levels.push(current);
  }
  return levels;
}

/**
 * The tile's quadrants, `depth` levels down where they can still be split, each with its share of
 * the page's rows (`total`); `tiles[id]` is each node's tile. A quadrant's circle lies inside its
 * parent's, so its rows are among the parent's.
 */
export function shareTree(
  tile: Tile,
  shape: Shape,
  rows: readonly PageRow[],
  total: number,
  depth: number,
  tiles: Tile[],
): ShareNode[] {
  if (depth === 0 || !canSplit(tile)) return [];
  return splitTile(tile, shape).map((t) => {
    const inside = rows.filter((r) => inTile(t, r.lat, r.lon));
    const id = tiles.push(t) - 1;
    return {
      id,
      share: inside.length / Math.max(1, total),
      children: shareTree(t, shape, inside, total, depth - 1, tiles),
    };
  });
}

function shareOf(nodes: readonly ShareNode[], id: number): number {
  for (const n of nodes) {
    if (n.id === id) return n.share;
    const inner = shareOf(n.children, id);
    if (inner >= 0) return inner;
  }
  return -1;
}

/** Rows a group of types is planned to hold: a page, with room for estimates that fall short. */
const GROUP_ROWS = 400;

/**
 * Types asked together (`types=a,b,c`) so each child job is expected to fit about one page: the
 * pile's rows of each type (counted twice — the pile may go on past this page) plus the type's share
 * of the rows around it at their rate over the days still to fetch; first-fit decreasing into groups
 * of GROUP_ROWS. A group that piles up again is split one type per job (decide's typed branch).
 */
export function groupTypes(
  rows: readonly PageRow[],
  types: readonly string[],
  spanDays: number,
  remainingDays: number,
): string[][] {
  const key = (r: PageRow): string => `${r.lat},${r.lon}`;
  const at = new Map<string, number>();
  for (const r of rows) at.set(key(r), (at.get(key(r)) ?? 0) + 1);
  const top = [...at.entries()].reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0])[0];
  const pile = new Map<string, number>();
  const around = new Map<string, number>();
  for (const r of rows) {
    const m = key(r) === top ? pile : around;
    m.set(r.type.toLowerCase(), (m.get(r.type.toLowerCase()) ?? 0) + 1);
  }
  const aroundRows = rows.length - [...pile.values()].reduce((a, b) => a + b, 0);
  const aroundPerDay = aroundRows / Math.max(spanDays, 1 / 24);
  const expected = (t: string): number => {
    const k = t.toLowerCase();
    const share = ((around.get(k) ?? 0) + 0.5) / (aroundRows + 0.5 * types.length);
    return 2 * (pile.get(k) ?? 0) + share * aroundPerDay * remainingDays;
  };
  const sorted = [...types].map((t) => ({ t, n: expected(t) })).sort((a, b) => b.n - a.n);
  const groups: { types: string[]; n: number }[] = [];
  for (const { t, n } of sorted) {
    const g = groups.find((x) => x.n + n <= GROUP_ROWS);
    if (g) {
      g.types.push(t);
      g.n += n;
    } else groups.push({ types: [t], n });
  }
  return groups.map((g) => g.types);
}

/** Every type the API is known to use, plus any other seen in the page or locally. */
export function typesToSplit(rows: readonly PageRow[], known: readonly string[] = []): string[] {
  const all = new Map<string, string>();
  for (const t of [...CRIME_TYPES, ...known, ...rows.map((r) => r.type)]) all.set(t.toLowerCase(), t);
  return [...all.values()];
}
