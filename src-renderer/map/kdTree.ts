/**
 * A static 2-D k-d tree over packed coordinates (the KDBush layout, as supercluster uses it): ids and
 * coordinates sorted in place by alternating axis into leaves of `nodeSize`, queried without
 * allocating per node. Coordinates are kept as Float32 (half the memory; ample for Web Mercator
 * [0, 1] at the zooms clustered). Answers into a caller's array, so a million queries make no garbage.
 */
export class KDTree {
  readonly ids: Uint32Array;
  readonly coords: Float32Array;
  private readonly stack: number[] = [];

  constructor(
    x: ArrayLike<number>,
    y: ArrayLike<number>,
    readonly size: number,
    private readonly nodeSize = 64,
  ) {
    this.ids = new Uint32Array(size);
    this.coords = new Float32Array(size * 2);
    for (let i = 0; i < size; i++) {
      this.ids[i] = i;
      this.coords[i * 2] = x[i] as number;
      this.coords[i * 2 + 1] = y[i] as number;
    }
    this.sort(0, size - 1, 0);
  }

  /** Ids of the points in [minX, maxX] × [minY, maxY], appended to `out`. */
  range(minX: number, minY: number, maxX: number, maxY: number, out: number[]): number[] {
    const { ids, coords, nodeSize, stack } = this;
    if (this.size === 0) return out;
    stack.length = 0;
    stack.push(0, this.size - 1, 0);
    while (stack.length) {
      const axis = stack.pop() as number;
      const right = stack.pop() as number;
      const left = stack.pop() as number;
      if (right - left <= nodeSize) {
        for (let i = left; i <= right; i++) {
          const px = coords[2 * i] as number;
          const py = coords[2 * i + 1] as number;
          if (px >= minX && px <= maxX && py >= minY && py <= maxY) out.push(ids[i] as number);
        }
        continue;
      }
      const m = (left + right) >> 1;
      const px = coords[2 * m] as number;
      const py = coords[2 * m + 1] as number;
      if (px >= minX && px <= maxX && py >= minY && py <= maxY) out.push(ids[m] as number);
      if (axis === 0 ? minX <= px : minY <= py) stack.push(left, m - 1, 1 - axis);
      if (axis === 0 ? maxX >= px : maxY >= py) stack.push(m + 1, right, 1 - axis);
    }
    return out;
  }

  /** Ids of the points within distance `r` of (qx, qy), appended to `out`. */
  within(qx: number, qy: number, r: number, out: number[]): number[] {
    const { ids, coords, nodeSize, stack } = this;
    if (this.size === 0) return out;
    const r2 = r * r;
    stack.length = 0;
    stack.push(0, this.size - 1, 0);
    while (stack.length) {
      const axis = stack.pop() as number;
      const right = stack.pop() as number;
      const left = stack.pop() as number;
      if (right - left <= nodeSize) {
        for (let i = left; i <= right; i++) {
          const dx = (coords[2 * i] as number) - qx;
          const dy = (coords[2 * i + 1] as number) - qy;
          if (dx * dx + dy * dy <= r2) out.push(ids[i] as number);
        }
        continue;
      }
      const m = (left + right) >> 1;
      const px = coords[2 * m] as number;
      const py = coords[2 * m + 1] as number;
      const dx = px - qx;
      const dy = py - qy;
      if (dx * dx + dy * dy <= r2) out.push(ids[m] as number);
      if (axis === 0 ? qx - r <= px : qy - r <= py) stack.push(left, m - 1, 1 - axis);
      if (axis === 0 ? qx + r >= px : qy + r >= py) stack.push(m + 1, right, 1 - axis);
    }
    return out;
  }

  private sort(left: number, right: number, axis: number): void {
    if (right - left <= this.nodeSize) return;
    const m = (left + right) >> 1;
    this.select(m, left, right, axis);
    this.sort(left, m - 1, 1 - axis);
    this.sort(m + 1, right, 1 - axis);
  }

  /** Floyd–Rivest selection: the k-th item by `axis` at k, smaller ones left of it, larger right. */
  private select(k: number, left: number, right: number, axis: number): void {
    const { coords } = this;
    while (right > left) {
      if (right - left > 600) {
        const n = right - left + 1;
        const m = k - left + 1;
        const z = Math.log(n);
        const s = 0.5 * Math.exp((2 * z) / 3);
        const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
        this.select(
          k,
          Math.max(left, Math.floor(k - (m * s) / n + sd)),
          Math.min(right, Math.floor(k + ((n - m) * s) / n + sd)),
          axis,
        );
      }
      const t = coords[2 * k + axis] as number;
      let i = left;
      let j = right;
      this.swap(left, k);
      if ((coords[2 * right + axis] as number) > t) this.swap(left, right);
      while (i < j) {
        this.swap(i, j);
        i++;
        j--;
        while ((coords[2 * i + axis] as number) < t) i++;
        while ((coords[2 * j + axis] as number) > t) j--;
      }
      if ((coords[2 * left + axis] as number) === t) this.swap(left, j);
      else {
        j++;
        this.swap(j, right);
      }
      if (j <= k) left = j + 1;
      if (k <= j) right = j - 1;
    }
  }

  private swap(i: number, j: number): void {
    const { ids, coords } = this;
    const id = ids[i] as number;
    ids[i] = ids[j] as number;
    ids[j] = id;
    const x = coords[2 * i] as number;
    const y = coords[2 * i + 1] as number;
    coords[2 * i] = coords[2 * j] as number;
    coords[2 * i + 1] = coords[2 * j + 1] as number;
    coords[2 * j] = x;
    coords[2 * j + 1] = y;
  }
}
