/**
 * The alphabetical order of a growing dictionary as ranks (rank[id] = position), for the table's
 * type and address sorts. A first build sorts every value without blocking the worker (sorted runs
 * of a few thousand, merged pairwise, pausing between slices: 100k addresses take ~300 ms of CPU
 * but never more than ~15 ms at a time); later values are inserted by binary search.
 */
import type { Dictionary } from './dictionary';

const RUN = 8_192;
const SLICE = 10_000;
const SEP = '\u0001';

export class Ranking {
  private sorted: number[] = [];
  private keys: string[] = [];
  private rank = new Uint32Array(0);
  private building: Promise<void> | null = null;

  constructor(
    private readonly dict: Dictionary,
    private readonly key: (value: string) => string = (v) => v,
  ) {}

  /** Takes over `other`'s work when it ranked the same values (a re-read of an unchanged store). */
  adopt(other: Ranking): void {
    const n = other.keys.length;
    if (n === 0 || n > this.dict.size || this.keys.length > 0) return;
    for (let id = 0; id < n; id++) if (this.dict.values[id] !== other.dict.values[id]) return;
    this.sorted = other.sorted.slice();
    this.keys = other.keys.slice();
    this.rank = other.rank;
  }

  /** The ranks of every value now in the dictionary. */
  async ranks(pause: () => Promise<void>): Promise<Uint32Array> {
    while (this.keys.length < this.dict.size) {
      if (this.building) await this.building;
      else if (this.dict.size - this.keys.length > Math.max(64, this.keys.length / 8)) {
        this.building = this.build(pause).finally(() => (this.building = null));
      } else this.insertNew();
    }
    return this.rank;
  }

  private insertNew(): void {
    const keys = this.keys;
    const before = (a: number, b: number): boolean => {
      const x = keys[a] as string;
      const y = keys[b] as string;
      return x < y || (x === y && a < b);
    };
    for (let id = keys.length; id < this.dict.size; id++) {
      keys.push(this.key(this.dict.values[id] as string));
      let lo = 0;
      let hi = this.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(this.sorted[mid] as number, id)) lo = mid + 1;
        else hi = mid;
      }
      this.sorted.splice(lo, 0, id);
    }
    this.updateRanks();
  }

  /** Sorts "key SEP id" strings with the engine's own (comparator-free) sort, in runs, then merges. */
  private async build(pause: () => Promise<void>): Promise<void> {
    const n = this.dict.size;
    const keys: string[] = new Array<string>(n);
    const tagged: string[] = new Array<string>(n);
    for (let start = 0; start < n; start += SLICE) {
      for (let id = start; id < Math.min(n, start + SLICE); id++) {
        keys[id] = this.key(this.dict.values[id] as string);
        tagged[id] = `${keys[id]}${SEP}${String(id).padStart(10, '0')}`;
      }
      await pause();
    }
    let runs: string[][] = [];
    for (let start = 0; start < n; start += RUN) {
      runs.push(tagged.slice(start, start + RUN).sort());
      if (runs.length % 2 === 0) await pause();
    }
    while (runs.length > 1) {
      const next: string[][] = [];
      for (let r = 0; r < runs.length; r += 2) {
        next.push(
          r + 1 < runs.length
            ? await merge(runs[r] as string[], runs[r + 1] as string[], pause)
            : (runs[r] as string[]),
        );
      }
      runs = next;
    }
    this.sorted = (runs[0] ?? []).map((t) => Number(t.slice(t.lastIndexOf(SEP) + 1)));
    this.keys = keys;
    this.updateRanks();
  }

  private updateRanks(): void {
    const rank = new Uint32Array(this.keys.length);
    this.sorted.forEach((id, position) => (rank[id] = position));
    this.rank = rank;
  }
}

async function merge(a: string[], b: string[], pause: () => Promise<void>): Promise<string[]> {
  const out = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length || j < b.length) {
    const stop = Math.min(out.length, k + SLICE);
    while (k < stop) {
      if (j >= b.length || (i < a.length && (a[i] as string) <= (b[j] as string)))
        out[k++] = a[i++] as string;
      else out[k++] = b[j++] as string;
    }
    if (k < out.length) await pause();
  }
  return out;
}
