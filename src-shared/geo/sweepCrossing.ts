/**
 * Whether a closed ring's non-adjacent edges touch, by a sweep line (Shamos–Hoey): corners in
 * (lon, lat) order, the edges the sweep stands on kept in a skip list in their order along it, and
 * only edges that become neighbours there compared. Cost about n log n whatever the ring's shape —
 * 250,000 corners of a zig-zag star, whose edges are thin parallel spikes no grid separates, in
 * well under 0.5 s (bench/selfCrossing.ts).
 *
 * Exact handling of the degenerate cases: at each corner, every edge that has it as an end or
 * passes through it (found where the corner falls in the sweep's order) is compared with every
 * other, so touching at a corner, a corner on an edge, two corners at one point and collinear
 * overlaps are found there; the two edges at a corner are adjacent and never compared (the
 * `touches` predicate decides, as for all pairs). Upright edges begin at their lower end.
 *
 * The sweep's order is decided by orientation signs computed in floating point. When one of them is
 * too close to zero for its sign to be sure (Shewchuk's error bound), the answer is `undefined` and
 * the caller decides another way: the sweep never answers from a sign it cannot trust.
 */
import type { LatLon } from './bbox';

/** Shewchuk's bound on the rounding of a 2-D orientation determinant, relative to its terms. */
const EPSILON = 2 ** -53;
const ORIENT_ERROR = (3 + 16 * EPSILON) * EPSILON;
const NIL = -1;
/** A node rises one more level of the skip list with this chance. */
const RISE = 0.25;
/** Corners from which the radix sort (four passes of 65,536 buckets) beats a compared sort. */
const RADIX_FROM = 32_768;

export type SegmentsTouch = (a: LatLon, b: LatLon, c: LatLon, d: LatLon) => boolean;

/**
 * True when two non-adjacent edges touch (by `touches`), false when none does, undefined when an
 * orientation sign was too close to call.
 */
export function sweepSelfIntersects(ring: readonly LatLon[], touches: SegmentsTouch): boolean | undefined {
  const n = ring.length;
  if (n < 4) return false;
  return new Sweep(ring, touches).run();
}

class Sweep {
  private readonly n: number;
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  /** Each edge's corner that comes first in (lon, lat) order, and the other. */
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly next: Int32Array[] = [];
  private readonly prev: Int32Array[] = [];
  private readonly height: Uint8Array;
  private readonly head: number;
  private unsure = false;
  private seed = 0x9e3779b9;

  constructor(
    private readonly ring: readonly LatLon[],
    private readonly touches: SegmentsTouch,
  ) {
    const n = (this.n = ring.length);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const p = ring[i] as LatLon;
      this.y[i] = p[0];
      this.x[i] = p[1];
    }
    this.left = new Int32Array(n);
    this.right = new Int32Array(n);
    for (let e = 0; e < n; e++) {
      const f = e + 1 === n ? 0 : e + 1;
      const first = this.before(e, f);
      this.left[e] = first ? e : f;
      this.right[e] = first ? f : e;
    }
    this.height = new Uint8Array(n + 1);
    this.head = n;
    this.addLevel();
  }

  /** Corner a comes before corner b in the sweep (lon, then lat). */
  private before(a: number, b: number): boolean {
    const { x, y } = this;
    return x[a]! < x[b]! || (x[a] === x[b] && y[a]! < y[b]!);
  }

  private addLevel(): void {
    const next = new Int32Array(this.n + 1).fill(NIL);
    const prev = new Int32Array(this.n + 1).fill(NIL);
    this.next.push(next);
    this.prev.push(prev);
    this.height[this.head] = this.next.length;
  }

  private randomHeight(): number {
    let h = 1;
    for (;;) {
      this.seed = (Math.imul(this.seed, 1664525) + 1013904223) >>> 0;
      if (this.seed / 2 ** 32 >= RISE || h >= 24) return h;
      h++;
    }
  }

  /** Which side of edge e (directed left to right) the point lies: 1 above, -1 below, 0 on its line. */
  private side(e: number, px: number, py: number): number {
    const a = this.left[e]!;
    const b = this.right[e]!;
    const { x, y } = this;
    const ax = x[a]!;
    const ay = y[a]!;
    if ((ax === px && ay === py) || (x[b] === px && y[b] === py)) return 0;
    const l = (x[b]! - ax) * (py - ay);
    const r = (y[b]! - ay) * (px - ax);
    const det = l - r;
    const bound = ORIENT_ERROR * (Math.abs(l) + Math.abs(r));
    if (bound > 0 && Math.abs(det) <= bound) this.unsure = true;
    return det > 0 ? 1 : det < 0 ? -1 : 0;
  }

  /** Edges i and j touch and are not adjacent. */
  private touch(i: number, j: number): boolean {
    const n = this.n;
    const d = i > j ? i - j : j - i;
    if (d <= 1 || d === n - 1) return false;
    const r = this.ring;
    return this.touches(
      r[i] as LatLon,
      r[i + 1 === n ? 0 : i + 1] as LatLon,
      r[j] as LatLon,
      r[j + 1 === n ? 0 : j + 1] as LatLon,
    );
  }

  private remove(e: number): void {
    for (let l = 0; l < this.height[e]!; l++) {
      const p = this.prev[l]![e]!;
      const q = this.next[l]![e]!;
      this.next[l]![p] = q;
      if (q !== NIL) this.prev[l]![q] = p;
    }
  }

  /** Puts e right after `after[l]` on each of its levels, and becomes their predecessor there. */
  private insert(e: number, after: Int32Array): void {
    const h = this.randomHeight();
    while (this.next.length < h) {
      this.addLevel();
      after[this.next.length - 1] = this.head;
    }
    this.height[e] = h;
    for (let l = 0; l < h; l++) {
      const p = after[l]!;
      const q = this.next[l]![p]!;
      this.next[l]![e] = q;
      this.prev[l]![e] = p;
      this.next[l]![p] = e;
      if (q !== NIL) this.prev[l]![q] = e;
      after[l] = e;
    }
  }

  /** Corners in sweep order: by lon (a radix sort of the float bits), runs of one lon by lat. */
  private sweepOrder(): Int32Array {
    const { n, x, y } = this;
    if (n < RADIX_FROM) {
      const order = new Int32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      return order.sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!);
    }
    const bits = new Uint32Array(x.buffer, x.byteOffset, 2 * n);
    // Sortable keys: the float's bits, all flipped when negative, the sign flipped when positive.
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const h = bits[2 * i + 1]!;
      const negative = h >>> 31 === 1;
      hi[i] = negative ? ~h >>> 0 : (h | 0x80000000) >>> 0;
      lo[i] = negative ? ~bits[2 * i]! >>> 0 : bits[2 * i]!;
    }
    let order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    let spare = new Int32Array(n);
    const counts = new Int32Array(65537);
    for (const [keys, shift] of [
      [lo, 0],
      [lo, 16],
      [hi, 0],
      [hi, 16],
    ] as const) {
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[((keys[i]! >>> shift) & 0xffff) + 1]!++;
      for (let b = 0; b < 65536; b++) counts[b + 1]! += counts[b]!;
      for (let i = 0; i < n; i++) {
        const c = order[i]!;
        spare[counts[(keys[c]! >>> shift) & 0xffff]!++] = c;
      }
      [order, spare] = [spare, order];
    }
    for (let i = 0; i < n;) {
      let j = i + 1;
      while (j < n && x[order[j]!] === x[order[i]!]) j++;
      if (j - i > 1) order.subarray(i, j).sort((a, b) => y[a]! - y[b]!);
      i = j;
    }
    return order;
  }

  run(): boolean | undefined {
    const { n, x, y, head } = this;
    const order = this.sweepOrder();
    const after = new Int32Array(25);
    const block: number[] = [];
    for (let i = 0; i < n;) {
      const c = order[i]!;
      const px = x[c]!;
      const py = y[c]!;
      let j = i + 1;
      while (j < n && x[order[j]!] === px && y[order[j]!] === py) j++;
      const ea = c === 0 ? n - 1 : c - 1;
      const eb = c;

      // Where the corner falls: the last edge strictly below it on each level, then those through it.
      let at = head;
      for (let l = this.next.length - 1; l >= 0; l--) {
        const next = this.next[l]!;
        for (let q = next[at]!; q !== NIL && this.side(q, px, py) > 0; q = next[at]!) at = q;
        after[l] = at;
      }
      const below = at;
      block.length = 0;
      let above = this.next[0]![below]!;
      let others = false;
      for (; above !== NIL && this.side(above, px, py) === 0; above = this.next[0]![above]!) {
        block.push(above);
        if (above !== ea && above !== eb) others = true;
      }
      if (this.unsure) return undefined;

      // Every edge with an end here or passing through: any non-adjacent two of them touch here.
      if (others || j - i > 1) {
        const near = [...block];
        for (let k = i; k < j; k++) {
          const corner = order[k]!;
          for (const e of [corner === 0 ? n - 1 : corner - 1, corner]) if (!near.includes(e)) near.push(e);
        }
        for (let a = 0; a < near.length; a++)
          for (let b = a + 1; b < near.length; b++) if (this.touch(near[a]!, near[b]!)) return true;
        return undefined; // two corners at one point, or a corner on an edge, always touch (n >= 4)
      }

      // One corner: the edges ending here leave the sweep, those beginning here join it.
      const aEnds = this.right[ea] === c;
      const bEnds = this.right[eb] === c;
      if (block.length !== (aEnds ? 1 : 0) + (bEnds ? 1 : 0)) return undefined;
      if (aEnds) this.remove(ea);
      if (bEnds) this.remove(eb);
      let low = NIL;
      let high = NIL;
      if (!aEnds && !bEnds) {
        // The lower of the two first: eb lies above ea's line when it turns left from ea.
        const s = this.side(ea, x[this.right[eb]!]!, y[this.right[eb]!]!);
        if (this.unsure) return undefined;
        [low, high] = s < 0 ? [eb, ea] : [ea, eb];
        this.insert(low, after);
        this.insert(high, after);
      } else if (!aEnds || !bEnds) {
        low = high = aEnds ? eb : ea;
        this.insert(low, after);
      }
      if (low === NIL) {
        if (below !== head && above !== NIL && this.touch(below, above)) return true;
      } else {
        if (below !== head && this.touch(below, low)) return true;
        if (above !== NIL && this.touch(high, above)) return true;
      }
      i = j;
    }
    return false;
  }
}
