/**
 * The table's rows as cached pages of one query (filters + sort). Pages are asked for as the user
 * scrolls, never twice at once, and evicted least-recently-used beyond a bound. When the archive
 * changes (a sync writes), `invalidate` keeps showing the rows held while fresh pages are fetched,
 * so the table does not blank out during a sync. A new query means a new cache. Pure.
 */
export type Page<Row> = { rows: Row[]; stale: boolean };

export class PageCache<Row> {
  private readonly pages = new Map<number, Page<Row>>();
  /** Page → the generation it was asked for in. */
  private readonly inflight = new Map<number, number>();
  /** Moves on every invalidate; answers to older requests are kept only as stale rows. */
  private generation = 0;
  /** Rows in the query's result; null until the first page arrives. */
  total: number | null = null;

  constructor(
    readonly pageSize: number,
    readonly maxPages = 40,
  ) {
    if (pageSize < 1 || pageSize > 500) throw new RangeError('A page holds 1 to 500 rows.');
  }

  pageOf(index: number): number {
    return Math.floor(index / this.pageSize);
  }

  rowAt(index: number): Row | undefined {
    return this.pages.get(this.pageOf(index))?.rows[index - this.pageOf(index) * this.pageSize];
  }

  /** Pages covering rows [first, last] that are missing or stale and not already being fetched. */
  wanted(first: number, last: number): number[] {
    // Until the total is known, only the page of the first row (it brings the total).
    const lastRow = this.total === null ? first : Math.min(last, this.total - 1);
    if (lastRow < first || first < 0) return [];
    const from = this.pageOf(first);
    const to = this.pageOf(lastRow);
    const out: number[] = [];
    for (let p = from; p <= to; p++) {
      const page = this.pages.get(p);
      if ((!page || page.stale) && !this.inflight.has(p)) out.push(p);
    }
    return out;
  }

  /** Marks pages as being fetched; returns what to ask for, with the generation to answer with. */
  request(pages: number[]): { page: number; offset: number; limit: number; generation: number }[] {
    for (const p of pages) this.inflight.set(p, this.generation);
    return pages.map((page) => ({
      page,
      offset: page * this.pageSize,
      limit: this.pageSize,
      generation: this.generation,
    }));
  }

  put(page: number, rows: Row[], total: number, generation = this.generation): void {
    if (this.inflight.get(page) === generation) this.inflight.delete(page);
    if (generation !== this.generation) {
      // Asked for before the archive changed: better than nothing, but fetched again.
      if (!this.pages.has(page)) this.pages.set(page, { rows, stale: true });
      return;
    }
    if (total !== this.total) {
      // The result grew or shrank: pages past the end are gone, the rest may have shifted.
      this.total = total;
      for (const [p, held] of this.pages) {
        if (p * this.pageSize >= total) this.pages.delete(p);
        else if (p !== page) held.stale = true;
      }
    }
    this.pages.delete(page);
    this.pages.set(page, { rows, stale: false });
    while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value as number);
  }

  /** A fetch failed: the page may be asked for again. */
  fail(page: number, generation = this.generation): void {
    if (this.inflight.get(page) === generation) this.inflight.delete(page);
  }

  /** The archive changed: keep rows for display, fetch them again when next wanted. */
  invalidate(): void {
    for (const page of this.pages.values()) page.stale = true;
    this.inflight.clear();
    this.generation++;
  }

  get loadedPages(): number {
    return this.pages.size;
  }
}
