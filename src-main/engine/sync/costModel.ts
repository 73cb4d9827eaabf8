/**
 * Page on through time, or split the tile — and how deep? After a full page we know the tile's
 * density (rows per day of report time) and where in the tile its rows fell. Paging costs a
 * re-fetch of the overlap days on every page; splitting costs at least one request per descendant
 * (and a partly empty last page each). We estimate paging to the end, splitting one, two or three
 * levels deep now, and "page k more times, then split", and take the cheapest. Estimates carry a
 * 10 % margin: a child expected at 480 rows may well hold 520.
 */
import { MAX_RECORDS } from './constants';

const MARGIN = 1.1;
const MAX_LOOKAHEAD = 50;

export type CostInput = {
  /** Rows per day of report time in the whole tile. */
  perDay: number;
  /** Days still to fetch (from the page's last row, or from the since when the tile is stuck). */
  remainingDays: number;
  /** Days the next page would fetch again. */
  overlapDays: number;
  /** Per split level (1 = quadrants, 2 = their quadrants, …): each descendant's share of the page's rows. */
  levels: readonly (readonly number[])[];

  /**
   * The tile's quadrants, each with its own quadrants (decide.ts `shareTree`): when given, a split
   * may stop at a different depth in each quadrant — a sparse edge stays one circle while the dense
   * middle goes deeper — and the cheapest such cut is taken (`cut`: the chosen nodes' ids).
   */
  tree?: readonly ShareNode[];
};

/** A quadrant of a tile, its share of the page's rows, and its own quadrants. */
export type ShareNode = { id: number; share: number; children: readonly ShareNode[] };

export type CostDecision =
  | { action: 'advance'; estimate: number }
  | { action: 'split'; level: number; estimate: number; cut?: number[] };

/** Rows left that one descending "tail" page is expected to finish (see decide.ts). */
export const TAIL_ROWS = MAX_RECORDS * 0.85;

/**
 * Requests to page through `rows` more rows at `perDay`: ascending pages of `fresh` new rows each
 * until what is left fits a tail page.
 */
export function pagesToEnd(rows: number, perDay: number, overlapDays: number): number {
  const left = Math.max(0, rows) * MARGIN;
  if (left <= TAIL_ROWS) return 1;
  const fresh = Math.max(MAX_RECORDS * 0.02, MAX_RECORDS - perDay * overlapDays);
  return 1 + Math.ceil((left - TAIL_ROWS) / fresh);
}

function splitCost(rows: number, perDay: number, overlapDays: number, shares: readonly number[]): number {
  let total = 0;
  for (const share of shares) total += pagesToEnd(rows * share, perDay * share, overlapDays);
  return total;
}

/** A node's cheapest cut: the node itself, or the cheapest cuts of its quadrants together. */
function nodeCost(
  n: ShareNode,
  rows: number,
  perDay: number,
  overlapDays: number,
): { cost: number; cut: number[] } {
  const own = pagesToEnd(rows * n.share, perDay * n.share, overlapDays);
  if (n.children.length === 0) return { cost: own, cut: [n.id] };
  let cost = 0;
  const cut: number[] = [];
  for (const child of n.children) {
    const x = nodeCost(child, rows, perDay, overlapDays);
    cost += x.cost;
    cut.push(...x.cut);
  }
  return cost < own ? { cost, cut } : { cost: own, cut: [n.id] };
}

function bestSplit(rows: number, c: CostInput): { level: number; cost: number; cut?: number[] } {
  if (c.tree && c.tree.length > 0) {
    let cost = 0;
    const cut: number[] = [];
    for (const q of c.tree) {
      const x = nodeCost(q, rows, c.perDay, c.overlapDays);
      cost += x.cost;
      cut.push(...x.cut);
    }
    return { level: 1, cost, cut };
  }
  let best: { level: number; cost: number; cut?: number[] } = { level: 0, cost: Infinity };
  c.levels.forEach((shares, i) => {
    const cost = splitCost(rows, c.perDay, c.overlapDays, shares);
    if (shares.length > 0 && cost < best.cost) best = { level: i + 1, cost };
  });
  return best;
}

/** For a tile that cannot move on in time: which split level is cheapest. */
export function cheapestSplit(c: CostInput): { level: number; estimate: number; cut?: number[] } {
  const best = bestSplit(c.perDay * c.remainingDays, c);
  return {
    level: Math.max(1, best.level),
    estimate: Number.isFinite(best.cost) ? best.cost : 1,
    ...(best.cut ? { cut: best.cut } : {}),
  };
}

export function decideSplit(c: CostInput): CostDecision {
  const rows = c.perDay * c.remainingDays;
  const page = pagesToEnd(rows, c.perDay, c.overlapDays);
  const now = bestSplit(rows, c);
  if (now.level === 0) return { action: 'advance', estimate: page };
  const fresh = MAX_RECORDS - c.perDay * c.overlapDays;
  let later = page;
  if (fresh > 0) {
    for (let k = 1; k <= MAX_LOOKAHEAD && rows - k * fresh > 0; k++)
      later = Math.min(later, k + bestSplit(rows - k * fresh, c).cost);
  }
  return now.cost < later
    ? { action: 'split', level: now.level, estimate: now.cost, ...(now.cut ? { cut: now.cut } : {}) }
    : { action: 'advance', estimate: later };
}
