/**
 * The offline locator: a location text ("000XX N WABASH AVE", "1200 BLOCK OF N STACK ST",
 * "N VIRGINIA ST/N MCCARRAN BL") → a point, how it was found and how far off it may be.
 *
 * What it knows, per normalised street (address.ts):
 * - block anchors: the places already known on a hundred block (the archive's incidents with
 *   coordinates, and address points), kept as their mean and spread;
 * - address points: an exact house number's point (a reference file of address points);
 * - centre-line segments with their address ranges (TIGER/Line EDGES or ADDRFEAT), interpolated.
 *
 * A number on a street is placed, in this order: by its address point; by its block's anchor
 * (the block's mean); by the centre-line segment whose range holds it; by interpolating between
 * the street's known blocks below and above it (or, past the last, beyond the two nearest, at most
 * MAX_EXTRAPOLATE numbers). An intersection: the two streets' centre lines meeting, else the two
 * streets' nearest known places. Each answer carries its uncertainty in metres.
 */
import { parseAddress, type ParsedAddress } from './address';

export type PlaceMethod = 'address point' | 'block' | 'interpolated' | 'intersection';

export type Placement = { lat: number; lon: number; method: PlaceMethod; uncertaintyM: number };

/** A centre-line segment with its address ranges (TIGER: LFROMADD, LTOADD, RFROMADD, RTOADD). */
export type Segment = {
  street: string;
  left: [number, number] | null;
  right: [number, number] | null;
  /** The line's corners, [lat, lon]. */
  line: [number, number][];
};

/** How far past a street's last known block a number is still placed (numbers). */
const MAX_EXTRAPOLATE = 400;
/** …or as far past them as the known blocks span (a street known over 2,000 numbers: 2,000 more). */
const SPAN_FACTOR = 1;
/** Known blocks at most this far apart (numbers) are interpolated between; wider gaps follow the grid. */
const NEAR_GAP = 1000;
/** Two streets' nearest known places farther apart than this do not make an intersection (m). */
const MAX_INTERSECTION_GAP_M = 400;
/** Centre lines meeting within this make an intersection (m). */
const MEET_M = 5;

const M_PER_DEG = 111_320;

function metres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * Math.cos(((lat1 + lat2) / 2) * (Math.PI / 180));
  return Math.hypot(x, lat2 - lat1) * M_PER_DEG;
}

type Anchor = {
  sumLat: number;
  sumLon: number;
  n: number;
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
};

class Street {
  /** A hundred block's signed middle (middleOf) → the places known on it. */
  readonly blocks = new Map<number, Anchor>();
  /** House number → its address point. */
  readonly points = new Map<number, [number, number]>();
  readonly segments: Segment[] = [];
  /** Built on first use: known blocks in order, with their means. */
  private sorted: { block: number[]; lat: number[]; lon: number[] } | null = null;

  /** A place at a signed number (see `lineOf`): its block is keyed by the block's signed middle. */
  addPlace(number: number, lat: number, lon: number): void {
    const block = middleOf(number);
    const a = this.blocks.get(block);
    if (!a) {
      this.blocks.set(block, {
        sumLat: lat,
        sumLon: lon,
        n: 1,
        minLat: lat,
        maxLat: lat,
        minLon: lon,
        maxLon: lon,
      });
      this.sorted = null;
      return;
    }
    a.sumLat += lat;
    a.sumLon += lon;
    a.n++;
    if (lat < a.minLat) a.minLat = lat;
    if (lat > a.maxLat) a.maxLat = lat;
    if (lon < a.minLon) a.minLon = lon;
    if (lon > a.maxLon) a.maxLon = lon;
    this.sorted = null;
  }

  anchor(block: number): Placement | null {
    const a = this.blocks.get(block);
    if (!a) return null;
    // A block is about 100-200 m long: one place says little of where on it another falls; more
    // places, half the extent they cover.
    const extent = metres(a.minLat, a.minLon, a.maxLat, a.maxLon) / 2;
    const uncertaintyM = Math.round(Math.max(a.n === 1 ? 100 : 50, extent));
    return { lat: a.sumLat / a.n, lon: a.sumLon / a.n, method: 'block', uncertaintyM };
  }

  private order(): { block: number[]; lat: number[]; lon: number[] } {
    if (this.sorted) return this.sorted;
    const block = [...this.blocks.keys()].sort((x, y) => x - y);
    const lat: number[] = [];
    const lon: number[] = [];
    for (const b of block) {
      const a = this.blocks.get(b) as Anchor;
      lat.push(a.sumLat / a.n);
      lon.push(a.sumLon / a.n);
    }
    return (this.sorted = { block, lat, lon });
  }

  /** Between the known blocks around the signed `number` (their means taken at their middles). */
  interpolate(number: number, grid: Grid | null): Placement | null {
    const o = this.order();
    const n = o.block.length;
    if (n === 0) return null;
    if (grid && this.axis() && !this.nearBetween(number, o)) {
      const byGrid = this.onGrid(number, grid, o);
      if (byGrid) return byGrid;
    }
    if (n < 2) return null;
    let hi = 0;
    while (hi < n && (o.block[hi] as number) < number) hi++;
    let i: number;
    let j: number;
    if (hi === 0) [i, j] = [0, 1];
    else if (hi === n) [i, j] = [n - 2, n - 1];
    else [i, j] = [hi - 1, hi];
    const ni = o.block[i] as number;
    const nj = o.block[j] as number;
    const outside = number < ni ? ni - number : number > nj ? number - nj : 0;
    const span = (o.block[n - 1] as number) - (o.block[0] as number);
    if (outside > Math.max(MAX_EXTRAPOLATE, SPAN_FACTOR * span)) return null;
    let lat: number;
    let lon: number;
    if (outside === 0) {
      const f = (number - ni) / (nj - ni);
      lat = (o.lat[i] as number) + f * ((o.lat[j] as number) - (o.lat[i] as number));
      lon = (o.lon[i] as number) + f * ((o.lon[j] as number) - (o.lon[i] as number));
    } else {
      // Past the known blocks: along the line fitted to all of them (two near blocks alone would
      // point the street anywhere their own scatter says).
      ({ lat, lon } = fitted(o, number));
    }
    const gap = metres(o.lat[i] as number, o.lon[i] as number, o.lat[j] as number, o.lon[j] as number);
    const step = gap / Math.max(1, (nj - ni) / 100);
    const uncertaintyM = Math.round(60 + 0.1 * gap + (outside / 100) * step * 0.5);
    return { lat, lon, method: 'interpolated', uncertaintyM };
  }

  /** Whether `number` lies between two known blocks at most NEAR_GAP apart. */
  private nearBetween(number: number, o: { block: number[] }): boolean {
    let hi = 0;
    while (hi < o.block.length && (o.block[hi] as number) < number) hi++;
    return hi > 0 && hi < o.block.length && (o.block[hi] as number) - (o.block[hi - 1] as number) <= NEAR_GAP;
  }

  /** The way the street runs, by the directions its numbers carry: N/S runs north–south. */
  votes = { ns: 0, ew: 0 };

  axis(): 'ns' | 'ew' | null {
    if (this.votes.ns > 2 * this.votes.ew) return 'ns';
    if (this.votes.ew > 2 * this.votes.ns) return 'ew';
    return null;
  }

  /**
   * In a grid city a number names the same latitude on every north–south street (and longitude on
   * every east–west one): the along-street position comes from the whole city's grid, the across
   * one from this street's own blocks — far steadier than a line through two of its blocks.
   */
  private onGrid(
    number: number,
    grid: Grid,
    o: { block: number[]; lat: number[]; lon: number[] },
  ): Placement | null {
    const axis = this.axis() as 'ns' | 'ew';
    const along = grid.at(axis, number);
    if (along === null) return null;
    const across = axis === 'ns' ? o.lon : o.lat;
    const n = o.block.length;
    let hi = 0;
    while (hi < n && (o.block[hi] as number) < number) hi++;
    let cross: number;
    let nearest: number;
    if (hi === 0 || hi === n) {
      const k = hi === 0 ? 0 : n - 1;
      cross = across[k] as number;
      nearest = Math.abs((o.block[k] as number) - number);
    } else {
      const [ni, nj] = [o.block[hi - 1] as number, o.block[hi] as number];
      const f = (number - ni) / (nj - ni);
      cross = (across[hi - 1] as number) + f * ((across[hi] as number) - (across[hi - 1] as number));
      nearest = Math.min(number - ni, nj - number);
    }
    const [lat, lon] = axis === 'ns' ? [along, cross] : [cross, along];
    // The grid's own spread, and a street that drifts from its line the farther from a known block.
    const uncertaintyM = Math.round(grid.spreadM(axis) + 60 + nearest * 0.05);
    return { lat, lon, method: 'interpolated', uncertaintyM };
  }

  /** Along the centre line whose range holds `number` (the side of its parity first). */
  onSegment(number: number): Placement | null {
    let best: { seg: Segment; f: number; score: number } | null = null;
    for (const seg of this.segments) {
      for (const range of [seg.left, seg.right]) {
        if (!range) continue;
        const [a, b] = range;
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        if (number < lo || number > hi) continue;
        const score = (Math.abs(a % 2) === Math.abs(number % 2) ? 0 : 1) + (hi - lo) / 1e6;
        if (best && best.score <= score) continue;
        best = { seg, f: a === b ? 0.5 : (number - a) / (b - a), score };
      }
    }
    if (!best) return null;
    const { lat, lon, length } = along(best.seg.line, best.f);
    return { lat, lon, method: 'interpolated', uncertaintyM: Math.round(20 + 0.1 * length) };
  }

  /** Every known place of the street, for intersections. */
  places(): [number, number][] {
    const o = this.order();
    const out: [number, number][] = o.lat.map((lat, k) => [lat, o.lon[k] as number]);
    for (const p of this.points.values()) out.push(p);
    for (const s of this.segments) for (const p of s.line) out.push(p);
    return out;
  }

  private cellIndex: { size: number; cells: Map<number, [number, number][]> } | null = null;

  /** Its places by cells of CELL_DEG (built once): an intersection looks only at the cells near. */
  cells(): Map<number, [number, number][]> {
    if (this.cellIndex && this.cellIndex.size === this.blocks.size + this.points.size + this.segments.length)
      return this.cellIndex.cells;
    const cells = new Map<number, [number, number][]>();
    for (const p of this.places()) {
      const key = cellOf(p[0], p[1]);
      const list = cells.get(key);
      if (list) list.push(p);
      else cells.set(key, [p]);
    }
    this.cellIndex = { size: this.blocks.size + this.points.size + this.segments.length, cells };
    return cells;
  }
}

/** The least-squares line through a street's known blocks (lat and lon against the number), at `n`. */
function fitted(
  o: { block: number[]; lat: number[]; lon: number[] },
  n: number,
): { lat: number; lon: number } {
  const k = o.block.length;
  let sx = 0;
  let sxx = 0;
  let sa = 0;
  let sxa = 0;
  let so = 0;
  let sxo = 0;
  for (let m = 0; m < k; m++) {
    const x = o.block[m] as number;
    sx += x;
    sxx += x * x;
    sa += o.lat[m] as number;
    sxa += x * (o.lat[m] as number);
    so += o.lon[m] as number;
    sxo += x * (o.lon[m] as number);
  }
  const d = k * sxx - sx * sx;
  const bLat = (k * sxa - sx * sa) / d;
  const bLon = (k * sxo - sx * so) / d;
  return { lat: (sa - bLat * sx) / k + bLat * n, lon: (so - bLon * sx) / k + bLon * n };
}

/** The point a fraction `f` of the way along a line, and the line's length (m). */
function along(line: [number, number][], f: number): { lat: number; lon: number; length: number } {
  const legs: number[] = [];
  let length = 0;
  for (let k = 1; k < line.length; k++) {
    const [a, b] = [line[k - 1] as [number, number], line[k] as [number, number]];
    const d = metres(a[0], a[1], b[0], b[1]);
    legs.push(d);
    length += d;
  }
  const first = line[0] as [number, number];
  if (length === 0) return { lat: first[0], lon: first[1], length };
  let want = Math.min(1, Math.max(0, f)) * length;
  for (let k = 1; k < line.length; k++) {
    const d = legs[k - 1] as number;
    if (want <= d || k === line.length - 1) {
      const [a, b] = [line[k - 1] as [number, number], line[k] as [number, number]];
      const t = d === 0 ? 0 : Math.min(1, want / d);
      return { lat: a[0] + t * (b[0] - a[0]), lon: a[1] + t * (b[1] - a[1]), length };
    }
    want -= d;
  }
  return { lat: first[0], lon: first[1], length };
}

/** Cells of the intersection search, in degrees: wider than MAX_INTERSECTION_GAP_M everywhere south of 60°. */
const CELL_DEG = 0.008;
const cellKey = (y: number, x: number) => (y + 20_000) * 50_000 + (x + 25_000);
const cellOf = (lat: number, lon: number) => cellKey(Math.floor(lat / CELL_DEG), Math.floor(lon / CELL_DEG));

/** A signed number's hundred block, by its middle: 1234 → 1250, −1234 → −1250, 0 → 50. */
function middleOf(n: number): number {
  return n < 0 ? -(Math.floor(-n / 100) * 100 + 50) : Math.floor(n / 100) * 100 + 50;
}

/**
 * A street → its line and the sign of its numbers. "N STATE ST" and "S STATE ST" are one line,
 * numbered outward from a baseline both ways (Chicago's Madison Street; most US grids): N and E
 * count up, S and W down, so W 1600 and E 1600 of 77th Street sit either side of State Street and
 * a block between them is interpolated across the baseline.
 */
function lineOf(street: string): { key: string; sign: number; axis: 'ns' | 'ew' | null } {
  const sp = street.indexOf(' ');
  if (sp < 0) return { key: street, sign: 1, axis: null };
  const first = street.slice(0, sp);
  const key = street.slice(sp + 1);
  if (first === 'N') return { key, sign: 1, axis: 'ns' };
  if (first === 'S') return { key, sign: -1, axis: 'ns' };
  if (first === 'E') return { key, sign: 1, axis: 'ew' };
  if (first === 'W') return { key, sign: -1, axis: 'ew' };
  return { key: street, sign: 1, axis: null };
}

/** Blocks of the same number on more north–south streets than this make a grid's bin. */
const GRID_MIN_STREETS = 2;
/** A grid whose bins spread more than this across streets is no grid (m). */
const GRID_MAX_SPREAD_M = 120;

/**
 * The city's address grid, learned from its streets: per signed block middle, the median latitude
 * of that block on north–south streets (longitude on east–west ones). Only where the same number
 * lies at nearly the same latitude on different streets (median spread ≤ GRID_MAX_SPREAD_M);
 * otherwise the city has no such grid and streets are interpolated on their own.
 */
export class Grid {
  private readonly bins: Record<'ns' | 'ew', { n: number[]; v: number[]; spread: number } | null>;

  constructor(streets: Iterable<Street>) {
    const by: Record<'ns' | 'ew', Map<number, number[]>> = { ns: new Map(), ew: new Map() };
    for (const s of streets) {
      const axis = s.axis();
      if (!axis) continue;
      for (const [middle, a] of s.blocks) {
        const v = axis === 'ns' ? a.sumLat / a.n : a.sumLon / a.n;
        const list = by[axis].get(middle);
        if (list) list.push(v);
        else by[axis].set(middle, [v]);
      }
    }
    this.bins = { ns: binsOf(by.ns, 1), ew: binsOf(by.ew, 0) };
  }

  /** The grid's latitude (ns) or longitude (ew) at a signed number; null outside its bins. */
  at(axis: 'ns' | 'ew', number: number): number | null {
    const b = this.bins[axis];
    if (!b) return null;
    const { n, v } = b;
    if (number < (n[0] as number) || number > (n[n.length - 1] as number)) return null;
    let lo = 0;
    let hi = n.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((n[mid] as number) <= number) lo = mid;
      else hi = mid;
    }
    const [n0, n1] = [n[lo] as number, n[hi] as number];
    if (n1 === n0) return v[lo] as number;
    return (v[lo] as number) + ((number - n0) / (n1 - n0)) * ((v[hi] as number) - (v[lo] as number));
  }

  spreadM(axis: 'ns' | 'ew'): number {
    return this.bins[axis]?.spread ?? 0;
  }
}

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Bins of a grid: the medians of blocks shared by enough streets, and their typical spread (m). */
function binsOf(
  by: Map<number, number[]>,
  lonScale: number,
): { n: number[]; v: number[]; spread: number } | null {
  const rows: [number, number][] = [];
  const spreads: number[] = [];
  for (const [middle, values] of by) {
    if (values.length < GRID_MIN_STREETS) continue;
    const m = median(values);
    rows.push([middle, m]);
    // Metres per degree: latitude everywhere, longitude at about 40° N (a spread check, not a position).
    const perDeg = lonScale ? 111_320 : 111_320 * 0.77;
    spreads.push(median(values.map((x) => Math.abs(x - m))) * perDeg);
  }
  if (rows.length < 3) return null;
  const spread = median(spreads);
  if (spread > GRID_MAX_SPREAD_M) return null;
  rows.sort((a, b) => a[0] - b[0]);
  return { n: rows.map((r) => r[0]), v: rows.map((r) => r[1]), spread };
}

/** A line without its suffix: finds a street spelled another way ("WABASH" for "WABASH AVE"). */
function looseKey(line: string): string {
  const words = line.split(' ');
  return words.length > 1 && !/^\d/.test(words[words.length - 1] as string)
    ? `~${words.slice(0, -1).join(' ')}`
    : `~${line}`;
}

export class Locator {
  private readonly streets = new Map<string, Street>();
  /** A loose key → the one street it names ('' when several do). */
  private loose: Map<string, string> | null = null;
  private readonly parsed = new Map<string, ParsedAddress | null>();
  private grids: Grid | null = null;

  /** The city's grid, learned once after the places are added (Grid). */
  private grid(): Grid {
    return (this.grids ??= new Grid(this.streets.values()));
  }

  private street(key: string): Street {
    let s = this.streets.get(key);
    if (!s) {
      this.streets.set(key, (s = new Street()));
      this.loose = null;
    }
    return s;
  }

  private parse(text: string): ParsedAddress | null {
    let p = this.parsed.get(text);
    if (p === undefined) {
      p = parseAddress(text);
      if (this.parsed.size < 2_000_000) this.parsed.set(text, p);
    }
    return p;
  }

  /** A known place of a location text (an incident with coordinates): its block learns it. */
  addKnown(address: string, lat: number, lon: number): boolean {
    const p = this.parse(address);
    if (!p || p.kind !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return false;
    const { key, sign, axis } = lineOf(p.street);
    const s = this.street(key);
    s.addPlace(sign * p.number, lat, lon);
    if (axis) s.votes[axis]++;
    this.grids = null;
    return true;
  }

  /** An address point: a house number on a street. */
  addAddressPoint(street: string, number: number, lat: number, lon: number): void {
    const { key, sign, axis } = lineOf(street);
    const s = this.street(key);
    s.points.set(sign * number, [lat, lon]);
    s.addPlace(sign * number, lat, lon);
    if (axis) s.votes[axis]++;
    this.grids = null;
  }

  addSegment(segment: Segment): void {
    if (segment.line.length < 2 || (!segment.left && !segment.right)) return;
    const { key, sign } = lineOf(segment.street);
    const signed = (r: [number, number] | null): [number, number] | null => r && [sign * r[0], sign * r[1]];
    this.street(key).segments.push({ ...segment, left: signed(segment.left), right: signed(segment.right) });
  }

  /** How many streets it knows. */
  get size(): number {
    return this.streets.size;
  }

  /** A street's line, spelled as known or, failing that, the one known line without its suffix. */
  private find(street: string): { s: Street; sign: number } | null {
    const { key, sign } = lineOf(street);
    const exact = this.streets.get(key);
    if (exact) return { s: exact, sign };
    if (!this.loose) {
      this.loose = new Map();
      for (const k of this.streets.keys()) {
        const l = looseKey(k);
        this.loose.set(l, this.loose.has(l) ? '' : k);
      }
    }
    const k = this.loose.get(looseKey(key));
    const s = k ? this.streets.get(k) : undefined;
    return s ? { s, sign } : null;
  }

  place(text: string): Placement | null {
    const p = this.parse(text);
    if (!p) return null;
    if (p.kind === 'intersection') return this.intersection(p.streets[0], p.streets[1]);
    const found = this.find(p.street);
    if (!found) return null;
    const { s, sign } = found;
    const n = sign * p.number;
    if (!p.isBlock) {
      const point = s.points.get(n);
      if (point) return { lat: point[0], lon: point[1], method: 'address point', uncertaintyM: 15 };
    }
    return s.anchor(middleOf(n)) ?? s.onSegment(n) ?? s.interpolate(n, this.grid());
  }

  private intersection(a: string, b: string): Placement | null {
    const sa = this.find(a)?.s;
    const sb = this.find(b)?.s;
    if (!sa || !sb || sa === sb) return null;
    // Centre lines that share a corner meet there.
    for (const x of sa.segments)
      for (const y of sb.segments)
        for (const p of [x.line[0], x.line[x.line.length - 1]] as [number, number][])
          for (const q of [y.line[0], y.line[y.line.length - 1]] as [number, number][])
            if (metres(p[0], p[1], q[0], q[1]) <= MEET_M)
              return {
                lat: (p[0] + q[0]) / 2,
                lon: (p[1] + q[1]) / 2,
                method: 'intersection',
                uncertaintyM: 15,
              };
    let best = Infinity;
    let at: [number, number] = [0, 0];
    const cb = sb.cells();
    for (const p of sa.places()) {
      const y = Math.floor(p[0] / CELL_DEG);
      const x = Math.floor(p[1] / CELL_DEG);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++)
          for (const q of cb.get(cellKey(y + dy, x + dx)) ?? []) {
            const d = metres(p[0], p[1], q[0], q[1]);
            if (d < best) [best, at] = [d, [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]];
          }
    }
    if (best > MAX_INTERSECTION_GAP_M) return null;
    return { lat: at[0], lon: at[1], method: 'intersection', uncertaintyM: Math.round(50 + best / 2) };
  }
}
