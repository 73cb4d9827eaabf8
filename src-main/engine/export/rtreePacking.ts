/**
 * A packed R-tree of envelopes in SQLite's own R*Tree node layout, built at once instead of by a
 * million single inserts (SQLite's rtree module took 6–10 s for a million points; packing them
 * takes ~0.4 s, the whole index with its writes ~1.1 s).
 * Sort-Tile-Recursive packing: the entries sorted by x into √(leaves) vertical slices, each
 * slice sorted by y and cut into full nodes; the nodes packed the same way, level by level, up
 * to one root. The coordinates are 32-bit floats rounded outward exactly as SQLite rounds them
 * (rtree.c's rtreeValueDown/Up), so each entry holds what SQLite itself would have stored.
 *
 * SQLite's layout (rtree.c, "Database Format of R-Tree Tables"): node 1 is the root; a node is a
 * blob of `nodeSize` bytes — 2 bytes big-endian tree depth (root only, 0 elsewhere), 2 bytes its
 * cell count, then cells of an 8-byte big-endian id (a row's id in a leaf, a child node's number
 * in a branch) and minX, maxX, minY, maxY as big-endian 32-bit floats.
 */

/** rtree.c's RTREE_MAXCELLS: a node holds at most 51 cells whatever the page size. */
const MAX_CELLS = 51;
const CELL_BYTES = 8 + 4 * 4;

/**
 * Envelopes gathered one by one, grown as needed: each id, and its box as the floats SQLite keeps
 * (24 bytes an entry).
 */
export class EnvelopeList {
  count = 0;
  ids = new Float64Array(1024);
  box = new Float32Array(4 * 1024); // minX, maxX, minY, maxY per entry, rounded outward

  push(id: number, minX: number, maxX: number, minY: number, maxY: number): void {
    if (!(minX <= maxX && minY <= maxY)) return; // empty or NaN: no entry (as GeoPackage wants)
    if (this.count === this.ids.length) {
      const ids = new Float64Array(this.ids.length * 2);
      ids.set(this.ids);
      this.ids = ids;
      const box = new Float32Array(this.box.length * 2);
      box.set(this.box);
      this.box = box;
    }
    const o = this.count * 4;
    this.ids[this.count++] = id;
    this.box[o] = floatDown(minX);
    this.box[o + 1] = floatUp(maxX);
    this.box[o + 2] = floatDown(minY);
    this.box[o + 3] = floatUp(maxY);
  }
}

/** One node of the packed tree: its number and blob, and its parent's number (0 for the root). */
export interface PackedNode {
  nodeno: number;
  parent: number;
  blob: Buffer;
}

export interface PackedTree {
  /** Every node, the root (node 1) first. */
  nodes: PackedNode[];
  /** The leaf node holding each entry, in the list's order (for the `_rowid` table). */
  leafOf: Float64Array;
}

/** rtree.c's node size for a new table: the page less 64 bytes, at most 51 cells. */
export const nodeSizeFor = (pageSize: number): number => Math.min(pageSize - 64, 4 + CELL_BYTES * MAX_CELLS);

// rtree.c's rounding of a double to the float that holds it on the outside.
const RND_TOWARDS = 1 - 1 / 8388608;
const RND_AWAY = 1 + 1 / 8388608;
export function floatDown(d: number): number {
  const f = Math.fround(d);
  return f > d ? Math.fround(d * (d < 0 ? RND_AWAY : RND_TOWARDS)) : f;
}
export function floatUp(d: number): number {
  const f = Math.fround(d);
  return f < d ? Math.fround(d * (d < 0 ? RND_TOWARDS : RND_AWAY)) : f;
}

/** Packs the entries into nodes of `nodeSize` bytes; an empty list gives no nodes. */
export function packRtree(list: EnvelopeList, nodeSize: number): PackedTree {
  const capacity = Math.floor((nodeSize - 4) / CELL_BYTES);
  const n = list.count;
  const leafOf = new Float64Array(n);
  if (n === 0) return { nodes: [], leafOf };
  // Level 0 holds the entries; each level above holds the nodes of the one below.
  let box = list.box;
  // Each level: how many members (entries, or nodes of the level below), their boxes, and their
  // order: consecutive runs of `capacity` are the level's nodes.
  const levels: { order: Uint32Array; members: number; box: Float32Array }[] = [];
  let members = n;
  for (;;) {
    const order = strOrder(box, members, capacity);
    levels.push({ order, members, box });
    const nodes = Math.ceil(members / capacity);
    if (nodes === 1) break;
    const up = new Float32Array(4 * nodes);
    for (let j = 0; j < nodes; j++) {
      let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
      for (let k = j * capacity; k < Math.min(members, (j + 1) * capacity); k++) {
        const m = 4 * order[k]!;
        if (box[m]! < minX) minX = box[m]!;
        if (box[m + 1]! > maxX) maxX = box[m + 1]!;
        if (box[m + 2]! < minY) minY = box[m + 2]!;
        if (box[m + 3]! > maxY) maxY = box[m + 3]!;
      }
      up.set([minX, maxX, minY, maxY], 4 * j);
    }
    box = up;
    members = nodes;
  }
  // Node numbers top down: the root is 1, then each level's nodes in order.
  const depth = levels.length - 1;
  const firstNodeno: number[] = [];
  let next = 1;
  for (let l = depth; l >= 0; l--) {
    firstNodeno[l] = next;
    next += Math.ceil(levels[l]!.members / capacity);
  }
  const nodes: PackedNode[] = [];
  // The parent of each node of a level, set while the level above is written.
  const parentOf = levels.map((l) => new Float64Array(Math.ceil(l.members / capacity)));
  const all = Buffer.alloc((next - 1) * nodeSize); // zeroed: unused cells are zeros, as SQLite's
  const view = new DataView(all.buffer, all.byteOffset, all.byteLength);
  for (let l = depth; l >= 0; l--) {
    const { order, members: count, box: b } = levels[l]!;
    const nodeCount = Math.ceil(count / capacity);
    for (let j = 0; j < nodeCount; j++) {
      const nodeno = firstNodeno[l]! + j;
      const start = (nodeno - 1) * nodeSize;
      if (nodeno === 1) view.setUint16(start, depth);
      const from = j * capacity;
      const to = Math.min(count, from + capacity);
      view.setUint16(start + 2, to - from);
      let o = start + 4;
      for (let k = from; k < to; k++, o += CELL_BYTES) {
        const m = order[k]!;
        // A leaf's cell names the entry's id; a branch's the child node's number.
        const id = l === 0 ? list.ids[m]! : firstNodeno[l - 1]! + m;
        view.setUint32(o, Math.floor(id / 0x100000000));
        view.setUint32(o + 4, id >>> 0);
        view.setFloat32(o + 8, b[4 * m]!);
        view.setFloat32(o + 12, b[4 * m + 1]!);
        view.setFloat32(o + 16, b[4 * m + 2]!);
        view.setFloat32(o + 20, b[4 * m + 3]!);
        if (l === 0) leafOf[m] = nodeno;
        else parentOf[l - 1]![m] = nodeno;
      }
      nodes.push({
        nodeno,
        parent: l === depth ? 0 : parentOf[l]![j]!,
        blob: all.subarray(start, start + nodeSize),
      });
    }
  }
  return { nodes, leafOf };
}

/**
 * Sort-Tile-Recursive order of `count` boxes for nodes of `capacity`: sorted by centre x, cut into
 * √(nodes) slices of whole nodes, each slice sorted by centre y.
 */
function strOrder(box: Float32Array, count: number, capacity: number): Uint32Array {
  const keyX = new Uint32Array(count);
  const keyY = new Uint32Array(count);
  for (let k = 0; k < count; k++) {
    keyX[k] = sortable((box[4 * k]! + box[4 * k + 1]!) / 2);
    keyY[k] = sortable((box[4 * k + 2]! + box[4 * k + 3]!) / 2);
  }
  const order = new Uint32Array(count);
  for (let k = 0; k < count; k++) order[k] = k;
  const scratch = new Uint32Array(count);
  radixSort(order, keyX, scratch);
  const slices = Math.ceil(Math.sqrt(Math.ceil(count / capacity)));
  const sliceSize = slices * capacity;
  for (let s = 0; s < count; s += sliceSize) {
    const e = Math.min(count, s + sliceSize);
    radixSort(order.subarray(s, e), keyY, scratch.subarray(s, e));
  }
  return order;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** A float's bits as an unsigned key that sorts as the floats do. */
function sortable(v: number): number {
  f32[0] = v;
  const bits = u32[0]!;
  return (bits & 0x80000000 ? ~bits : bits | 0x80000000) >>> 0;
}

/** Sorts `order` by `keys[order[i]]` (stable, four passes of a byte). */
function radixSort(order: Uint32Array, keys: Uint32Array, scratch: Uint32Array): void {
  let from = order;
  let to = scratch;
  const counts = new Uint32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let k = 0; k < from.length; k++) counts[(keys[from[k]!]! >>> shift) & 255]!++;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = counts[b]!;
      counts[b] = sum;
      sum += c;
    }
    for (let k = 0; k < from.length; k++) {
      const m = from[k]!;
      to[counts[(keys[m]! >>> shift) & 255]!++] = m;
    }
    [from, to] = [to, from];
  }
  // Four passes: the sorted order is back in `order`.
}
