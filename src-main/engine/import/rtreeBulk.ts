/**
 * Rebuilds the incidents' R*Tree in bulk, for imports that add a large share of the archive.
 *
 * SQLite's rtree module inserts one entry at a time and rewrites a node blob per insert (~8 µs a
 * row); a million-row import would spend most of its time there. Instead this packs every point
 * with Sort-Tile-Recursive (sorted into vertical slices by longitude, each slice by latitude, cut
 * into full nodes, level by level up to the root) and writes the module's shadow tables directly,
 * in the module's own format (sqlite3.c, rtree: a node is a 2-byte depth — root only — a 2-byte cell
 * count and cells of an 8-byte rowid and float32 bounds, all big-endian, padded to the node size;
 * bounds rounded outwards exactly as rtreeValueDown/Up do). It then checks what it wrote: by default
 * the shadow tables' counts, the root's depth and a few hundred points found again through the
 * module from the root down (milliseconds); with 'full', SQLite's rtreecheck() over the whole tree
 * (about a second per million; the tests use it). The caller keeps the result only when the check
 * says 'ok' (see merge.ts).
 *
 * Runs inside the caller's transaction; shadow tables are writable only with better-sqlite3's
 * unsafe mode (defensive off), which is switched on for the writes and off again at once.
 */
import type { Db } from '../store/database';

const TABLE = 'incidents_rtree';
const RNDTOWARDS = 1 - 1 / 8388608;
const RNDAWAY = 1 + 1 / 8388608;
const CELL = 24; // rowid + 4 float32

/** A double rounded down to float32, as rtreeValueDown. */
export function float32Down(d: number): number {
  let f = Math.fround(d);
  if (f > d) f = Math.fround(d * (d < 0 ? RNDAWAY : RNDTOWARDS));
  return f;
}

/** A double rounded up to float32, as rtreeValueUp. */
export function float32Up(d: number): number {
  let f = Math.fround(d);
  if (f < d) f = Math.fround(d * (d < 0 ? RNDTOWARDS : RNDAWAY));
  return f;
}

/** Entries of one level: ids (rowids or node numbers) and [minLat, maxLat, minLon, maxLon] boxes. */
type Level = { id: Float64Array; box: Float32Array; size: number };

/** Groups a level's entries into nodes of at most `m` (Sort-Tile-Recursive); returns each node's entries. */
function tile(level: Level, m: number): Uint32Array[] {
  const n = level.size;
  const { box } = level;
  const cx = (i: number) => (box[i * 4 + 2] as number) + (box[i * 4 + 3] as number);
  const cy = (i: number) => (box[i * 4] as number) + (box[i * 4 + 1] as number);
  const order = sortedBy(n, cx, (i) => i);
  const leaves = Math.ceil(n / m);
  const perSlice = Math.ceil(Math.sqrt(leaves)) * m;
  const nodes: Uint32Array[] = [];
  for (let s = 0; s < n; s += perSlice) {
    const part = order.subarray(s, Math.min(n, s + perSlice));
    const slice = sortedBy(
      part.length,
      (k) => cy(part[k] as number),
      (k) => part[k] as number,
    );
    for (let k = 0; k < slice.length; k += m) nodes.push(slice.subarray(k, Math.min(slice.length, k + m)));
  }
  return nodes;
}

/**
 * Entries 0..n-1 as `id(k)`, ordered by `key(k)` (finite numbers): each key is quantised over the
 * keys' range and packed with k into one float64 (52 bits in all), so a native numeric sort does
 * the work without comparator calls. Keys closer than the quantum may come in either order — any
 * order gives a valid tree; the tiling only gets a little less tight.
 */
function sortedBy(n: number, key: (k: number) => number, id: (k: number) => number): Uint32Array {
  const out = new Uint32Array(n);
  const idSpan = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  const keySpan = 2 ** 52 / idSpan;
  if (keySpan < 2 ** 20) {
    // Too many entries to pack: sort with a comparator.
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      keys[k] = key(k);
      out[k] = k;
    }
    out.sort((a, b) => (keys[a] as number) - (keys[b] as number));
    for (let k = 0; k < n; k++) out[k] = id(out[k] as number);
    return out;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = key(k);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const scale = hi > lo ? (keySpan - 1) / (hi - lo) : 0;
  const packed = new Float64Array(n);
  for (let k = 0; k < n; k++) packed[k] = Math.floor((key(k) - lo) * scale) * idSpan + k;
  packed.sort();
  for (let k = 0; k < n; k++) out[k] = id((packed[k] as number) % idSpan);
  return out;
}

type Node = {
  level: Level;
  entries: Uint32Array;
  nodeno: number;
  box: [number, number, number, number];
  /** The parent node (null for the root). */
  parent: Node | null;
};

function boundsOf(level: Level, entries: Uint32Array): Node['box'] {
  const b: Node['box'] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const i of entries) {
    b[0] = Math.min(b[0], level.box[i * 4] as number);
    b[1] = Math.max(b[1], level.box[i * 4 + 1] as number);
    b[2] = Math.min(b[2], level.box[i * 4 + 2] as number);
    b[3] = Math.max(b[3], level.box[i * 4 + 3] as number);
  }
  return b;
}

/** Every incident's position, when the caller has them at hand (all of the table, any order). */
export type Points = { cdid: Float64Array; lat: Float64Array; lon: Float64Array; size: number };

/** Points looked up again through the module after a bulk build. */
const SAMPLED_POINTS = 256;

/** A tree packed in memory, ready to be written: what `packRtree` computes (on any thread). */
export type PackedRtree = {
  depth: number;
  nodeSize: number;
  /** Every node's blob (nodeSize bytes each, in writing order) and node number. */
  blobs: Uint8Array;
  nodenos: Float64Array;
  /** [node number, parent's node number] for every node but the root. */
  parents: Float64Array;
  /** The leaf entries in cdid order: cdid, leaf node number, bounds (4 float32 each). */
  ids: Float64Array;
  leafOf: Float64Array;
  boxes: Float32Array;
};

/** The rtree module's node size in this database (the root node's blob is always there). */
export function rtreeNodeSize(db: Db): number {
  return db.prepare(`SELECT length(data) FROM ${TABLE}_node WHERE nodeno = 1`).pluck().get() as number;
}

/**
 * Replaces the R*Tree's content with every incident — read from the table, or given as `points`
 * (exactly the table's rows), or already packed from them — and returns the check's verdict ('ok'
 * when sound).
 */
export function rebuildIncidentsRtree(
  db: Db,
  points?: Points,
  check: 'sampled' | 'full' = 'sampled',
  packed?: PackedRtree | null,
): string {
  const count = db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;
  const tree =
    packed && packed.ids.length === count
      ? packed
      : packRtree(
          points && points.size === count
            ? inCdidOrder(points)
            : (db.prepare('SELECT cdid, lat, lon FROM incidents ORDER BY cdid').raw().iterate() as Iterable<
                [number, number, number]
              >),
          count,
          rtreeNodeSize(db),
        );
  writePackedRtree(db, tree);
  if (check === 'full') return db.prepare(`SELECT rtreecheck(?)`).pluck().get(TABLE) as string;
  return sampledCheck(db, tree);
}

/** Packs `count` points ([cdid, lat, lon], by cdid) into nodes of `nodeSize` bytes. */
export function packRtree(
  points: Iterable<readonly [number, number, number]>,
  count: number,
  nodeSize: number,
): PackedRtree {
  const maxCells = Math.floor((nodeSize - 4) / CELL);
  const leafLevel: Level = { id: new Float64Array(count), box: new Float32Array(count * 4), size: 0 };
  for (const [cdid, lat, lon] of points) {
    if (leafLevel.size === count) break;
    const i = leafLevel.size++;
    leafLevel.id[i] = cdid;
    const b = leafLevel.box;
    b[i * 4] = float32Down(lat);
    b[i * 4 + 1] = float32Up(lat);
    b[i * 4 + 2] = float32Down(lon);
    b[i * 4 + 3] = float32Up(lon);
  }

  // Levels bottom-up; the last holds one node: the root.
  const levels: Node[][] = [];
  let level = leafLevel;
  for (;;) {
    const nodes: Node[] = (level.size === 0 ? [new Uint32Array(0)] : tile(level, maxCells)).map(
      (entries) => ({
        level,
        entries,
        nodeno: 0,
        box: boundsOf(level, entries),
        parent: null,
      }),
    );
    // The nodes of the level below are this level's entries, in order: tell each its parent.
    const below = levels[levels.length - 1];
    if (below) for (const n of nodes) for (const i of n.entries) (below[i] as Node).parent = n;
    levels.push(nodes);
    if (nodes.length === 1) break;
    level = {
      id: new Float64Array(nodes.length),
      box: new Float32Array(nodes.length * 4),
      size: nodes.length,
    };
    nodes.forEach((node, k) => level.box.set(node.box, k * 4));
  }
  // Number the nodes: the root is 1, the rest follow; then parents can name their children.
  let next = 2;
  for (let d = levels.length - 1; d >= 0; d--) {
    for (const node of levels[d] as Node[]) node.nodeno = d === levels.length - 1 ? 1 : next++;
    const parentLevel = levels[d + 1];
    if (d < levels.length - 1 && parentLevel) {
      const ids = (parentLevel[0] as Node).level.id;
      (levels[d] as Node[]).forEach((node, k) => (ids[k] = node.nodeno));
    }
  }

  const depth = levels.length - 1;
  const total = levels.reduce((sum, nodes) => sum + nodes.length, 0);
  const blobs = new Uint8Array(total * nodeSize);
  const view = new DataView(blobs.buffer);
  const nodenos = new Float64Array(total);
  const parents = new Float64Array((total - 1) * 2);
  const leafOf = new Float64Array(leafLevel.size);
  let written = 0;
  let linked = 0;
  levels.forEach((nodes, d) => {
    for (const n of nodes) {
      const base = written * nodeSize;
      if (n.nodeno === 1) view.setUint16(base, depth);
      view.setUint16(base + 2, n.entries.length);
      n.entries.forEach((i, c) => {
        const at = base + 4 + c * CELL;
        const id = n.level.id[i] as number;
        view.setUint32(at, Math.floor(id / 2 ** 32));
        view.setUint32(at + 4, id >>> 0);
        for (let k = 0; k < 4; k++) view.setFloat32(at + 8 + k * 4, n.level.box[i * 4 + k] as number);
        if (d === 0) leafOf[i] = n.nodeno;
      });
      nodenos[written++] = n.nodeno;
      if (n.parent) {
        parents[linked++] = n.nodeno;
        parents[linked++] = n.parent.nodeno;
      }
    }
  });
  return {
    depth,
    nodeSize,
    blobs,
    nodenos,
    parents,
    ids: leafLevel.id.subarray(0, leafLevel.size),
    leafOf,
    boxes: leafLevel.box.subarray(0, leafLevel.size * 4),
  };
}

/** Writes a packed tree into the module's shadow tables in place of what they held. */
function writePackedRtree(db: Db, tree: PackedRtree): void {
  const unsafe = (on: boolean) => db.unsafeMode(on);
  unsafe(true);
  try {
    db.exec(`DELETE FROM ${TABLE}_node; DELETE FROM ${TABLE}_rowid; DELETE FROM ${TABLE}_parent;`);
    const node = db.prepare(`INSERT INTO ${TABLE}_node (nodeno, data) VALUES (?, ?)`);
    const parent = db.prepare(`INSERT INTO ${TABLE}_parent (nodeno, parentnode) VALUES (?, ?)`);
    const { nodeSize, blobs } = tree;
    const bytes = Buffer.from(blobs.buffer, blobs.byteOffset, blobs.byteLength);
    tree.nodenos.forEach((nodeno, k) => node.run(nodeno, bytes.subarray(k * nodeSize, (k + 1) * nodeSize)));
    for (let k = 0; k < tree.parents.length; k += 2) parent.run(tree.parents[k], tree.parents[k + 1]);
    // Each point's leaf, in cdid order: appends to the rowid table's B-tree.
    const ROWS = 100;
    const rowidSql = (k: number) =>
      `INSERT INTO ${TABLE}_rowid (rowid, nodeno) VALUES ${Array(k).fill('(?, ?)').join(', ')}`;
    const rowids = db.prepare(rowidSql(ROWS));
    const params: number[] = [];
    for (let i = 0; i < tree.ids.length; i++) {
      params.push(tree.ids[i] as number, tree.leafOf[i] as number);
      if (params.length === ROWS * 2) {
        rowids.run(params);
        params.length = 0;
      }
    }
    if (params.length) db.prepare(rowidSql(params.length / 2)).run(params);
  } finally {
    unsafe(false);
  }
}

/**
 * The counts, the root's depth, and points spread over the table: each found from the root down by
 * its position (the first match suffices: many incidents may share a block) and by its cdid (the
 * rowid table to its leaf), with the bounds it was given.
 */
function sampledCheck(db: Db, tree: PackedRtree): string {
  const size = tree.ids.length;
  const rowids = db.prepare(`SELECT count(*) FROM ${TABLE}_rowid`).pluck().get() as number;
  if (rowids !== size) return `the rowid table holds ${rowids} entries, not ${size}`;
  const root = db.prepare(`SELECT data FROM ${TABLE}_node WHERE nodeno = 1`).pluck().get() as Buffer;
  if (root.readUInt16BE(0) !== tree.depth)
    return `the root says depth ${root.readUInt16BE(0)}, not ${tree.depth}`;
  const atPosition = db
    .prepare(
      `SELECT 1 FROM ${TABLE} WHERE min_lat <= ? AND max_lat >= ? AND min_lon <= ? AND max_lon >= ? LIMIT 1`,
    )
    .pluck();
  const byCdid = db.prepare(`SELECT min_lat, max_lat, min_lon, max_lon FROM ${TABLE} WHERE cdid = ?`).raw();
  const step = Math.max(1, Math.floor(size / SAMPLED_POINTS));
  for (let i = 0; i < size; i += step) {
    const box = Array.from(tree.boxes.subarray(i * 4, i * 4 + 4));
    const [minLat, maxLat, minLon, maxLon] = box as [number, number, number, number];
    const id = tree.ids[i] as number;
    if (atPosition.get(maxLat, minLat, maxLon, minLon) !== 1)
      return `incident ${id}'s position is not found through the tree`;
    const stored = byCdid.get(id) as number[] | undefined;
    if (!stored || stored.some((v, k) => v !== box[k])) return `incident ${id} is not held with its bounds`;
  }
  return 'ok';
}

/** The points as [cdid, lat, lon], by cdid (the order the rowid table is appended in). */
export function* inCdidOrder({ cdid, lat, lon, size }: Points): Generator<[number, number, number]> {
  let sorted = true;
  for (let i = 1; i < size && sorted; i++) sorted = (cdid[i - 1] as number) < (cdid[i] as number);
  const order = new Uint32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  if (!sorted) order.sort((a, b) => (cdid[a] as number) - (cdid[b] as number));
  const row: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < size; k++) {
    const i = order[k] as number;
    row[0] = cdid[i] as number;
    row[1] = lat[i] as number;
    row[2] = lon[i] as number;
    yield row;
  }
}
