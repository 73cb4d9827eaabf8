import { describe, expect, it } from 'vitest';
import { tileOf } from '../geo/tiles';
import { decideSplit, pagesToEnd, TAIL_ROWS } from './costModel';
import { decide, groupTypes, type JobView } from './decide';
import { nextSince, pageFacts, type PageRow } from './frontier';
import { NO_SINCE } from './windowStart';

const ZONE = 'America/New_York';
const DAY = 86_400_000;
const NOW = Date.parse('2025-06-01T12:00:00Z');
const shape = { kind: 'circle' as const, lat: 40.75, lon: -73.98, radiusMi: 1 };
const tile = tileOf({ minLat: 40.74, maxLat: 40.76, minLon: -73.99, maxLon: -73.97 });

/** `n` rows reported evenly from `from` over `days`, spread over the tile or piled on one point. */
function rows(n: number, from: string, days: number, pile = false): PageRow[] {
  const start = Date.parse(from);
  return Array.from({ length: n }, (_, i) => ({
    cdid: 1000 + i,
    lat: pile ? 40.75 : 40.742 + ((i * 7919) % 160) / 10_000,
    lon: pile ? -73.98 : -73.988 + ((i * 104729) % 160) / 10_000,
    type: ['Theft', 'Assault', 'Arrest'][i % 3] as string,
    utcMs: start + (i * days * DAY) / n,
    zone: ZONE,
  }));
}

const job = (over: Partial<JobView> = {}): JobView => ({
  tile,
  types: null,
  since: '2025-04-30',
  mode: 'asc',
  ascLastUtc: null,
  ...over,
});
const ctx = { shape, now: NOW };

describe('the frontier', () => {
  it('moves since to the local day of R − 36 h lag − 2 h slack, minus one (since means "after")', () => {
    // R = 2025-05-10 15:00 EDT → R − 38 h = 05-09 01:00 → since 05-08: everything that occurred on
    // 05-09 or later is in the next page; everything up to 05-08 was reported before R.
    expect(nextSince(Date.parse('2025-05-10T19:00:00Z'), ZONE)).toBe('2025-05-08');
    expect(nextSince(Date.parse('2025-05-10T04:30:00Z'), ZONE)).toBe('2025-05-07');
  });

  it('sees a stuck page and a pile', () => {
    expect(pageFacts(rows(500, '2025-05-01T04:00:00Z', 20), '2025-04-30').advanced).toBe(true);
    expect(pageFacts(rows(500, '2025-05-01T04:00:00Z', 1), '2025-04-30').advanced).toBe(false);
    expect(pageFacts(rows(500, '2025-05-01T04:00:00Z', 1, true), '2025-04-30').topPointShare).toBe(1);
  });
});

describe('decide', () => {
  it('finishes on a page that is not full', () => {
    expect(decide(job(), rows(499, '2025-05-01T04:00:00Z', 30), ctx)).toEqual({ kind: 'done' });
  });

  it('pages on through time when the tile is sparse enough, ending with a tail page', () => {
    const out = decide(job(), rows(500, '2025-05-01T04:00:00Z', 25), ctx);
    expect(out.kind).toBe('continue');
    if (out.kind !== 'continue') return;
    expect(out.proven).toBe(out.next.since);
    expect(out.next.since > '2025-04-30').toBe(true);
    expect(out.next.mode).toBe('tail'); // ~140 rows left: one descending page finishes it
  });

  it('prices a page that moved on past part of a pile by the rows around it, not the pile', () => {
    // 280 rows over 3.5 days, and 220 at one point (off the quadrants' lines) on its last day (a stadium's day, the rest of it
    // on the next page): counted as a rate, the pile made a stranger server's downtown split in space
    // at 06:20–07:10Z (36 requests for a fair 17; a quadrant split cannot separate a point).
    const spread = rows(280, '2025-05-08T04:00:00Z', 3.5);
    const pile = rows(220, '2025-05-11T04:00:00Z', 0.5, true).map((r) => ({
      ...r,
      cdid: r.cdid + 1000,
      lat: 40.745,
      lon: -73.985,
    }));
    const page = [...spread, ...pile].sort((a, b) => a.utcMs - b.utcMs);
    const out = decide(job({ since: '2025-05-07' }), page, ctx);
    expect(out.kind).toBe('continue');
    // The same 500 rows spread over the tile are a density, and that splits.
    const dense = [
      ...spread,
      ...rows(220, '2025-05-11T04:00:00Z', 0.5).map((r) => ({ ...r, cdid: r.cdid + 1000 })),
    ];
    expect(
      decide(
        job({ since: '2025-05-07' }),
        dense.sort((a, b) => a.utcMs - b.utcMs),
        ctx,
      ).kind,
    ).toBe('split-space');
  });

  it('splits a tile where a day alone fills a page, children starting at the same since', () => {
    const out = decide(job(), rows(500, '2025-05-01T04:00:00Z', 0.8), ctx);
    expect(out.kind).toBe('split-space');
    if (out.kind !== 'split-space') return;
    expect(out.children.length).toBeGreaterThanOrEqual(4);
    for (const c of out.children) expect(c.next.since).toBe('2025-04-30');
  });

  it('splits a pile at one address by type, then meets it from both ends', () => {
    const pile = rows(500, '2025-05-01T12:00:00Z', 0.4, true);
    const out = decide(job(), pile, ctx);
    expect(out.kind).toBe('split-types');
    if (out.kind === 'split-types')
      expect(out.types).toEqual(expect.arrayContaining(['Theft', 'Assault', 'Arrest', 'Other']));
    if (out.kind === 'split-types') expect(out.groups.flat().sort()).toEqual([...out.types].sort());
    const typed = decide(job({ types: ['Theft'] }), pile, ctx);
    expect(typed).toMatchObject({ kind: 'continue', next: { mode: 'desc', since: '2025-04-30' } });
    const R = Math.max(...pile.map((r) => r.utcMs));
    const meets = rows(500, '2025-05-01T13:00:00Z', 0.5, true).reverse();
    expect(decide(job({ types: ['Theft'], mode: 'desc', ascLastUtc: R }), meets, ctx)).toEqual({
      kind: 'done',
    });
    const apart = rows(500, '2025-05-03T12:00:00Z', 0.4, true).reverse();
    // Apart: the rows around the pile fill the descending page — a smaller circle is asked again.
    const split = decide(job({ types: ['Theft'], mode: 'desc', ascLastUtc: R }), apart, ctx);
    expect(split.kind).toBe('split-space');
    if (split.kind === 'split-space') {
      expect(split.children.length).toBeGreaterThanOrEqual(1);
      for (const c of split.children) expect(c.next).toMatchObject({ since: '2025-04-30', mode: 'asc' });
    }
    // A tile too small to split: the spot cannot be proven complete.
    const tiny = tileOf({ minLat: 40.75, maxLat: 40.7505, minLon: -73.98, maxLon: -73.9795 });
    expect(decide(job({ tile: tiny, types: ['Theft'], mode: 'desc', ascLastUtc: R }), apart, ctx).kind).toBe(
      'failed',
    );
  });

  it('asks the piled types in groups expected to fit a page, and a group that piles again one by one', () => {
    // 300 rows at one point (theft and assault), 200 around it over a day, 30 days still to fetch.
    const page = [
      ...rows(300, '2025-05-01T12:00:00Z', 0.5, true).map((r, i) => ({
        ...r,
        type: i % 2 ? 'Theft' : 'Assault',
      })),
      ...rows(200, '2025-05-01T00:00:00Z', 1).map((r, i) => ({ ...r, cdid: 5000 + i })),
    ];
    const types = [
      'Theft',
      'Assault',
      'Arrest',
      'Robbery',
      'Burglary',
      'Arson',
      'Other',
      'Vandalism',
      'Shooting',
    ];
    const groups = groupTypes(page, types, 1, 30);
    expect(groups.flat().sort()).toEqual([...types].sort());
    expect(groups.length).toBeLessThan(types.length);
    // The piled types each hold 2 × 150 of the pile alone: never grouped with another heavy one.
    expect(groups.find((g) => g.includes('Theft'))).not.toContain('Assault');
    const again = decide(
      job({ types: ['Theft', 'Assault'] }),
      rows(500, '2025-05-01T12:00:00Z', 0.4, true),
      ctx,
    );
    expect(again).toMatchObject({ kind: 'split-types', groups: [['Theft'], ['Assault']] });
  });

  it('goes back to ascending pages when a tail page does not meet', () => {
    const out = decide(
      job({ mode: 'tail', ascLastUtc: Date.parse('2025-05-02T00:00:00Z') }),
      rows(500, '2025-05-20T00:00:00Z', 10).reverse(),
      ctx,
    );
    expect(out).toMatchObject({ kind: 'continue', next: { mode: 'asc', since: '2025-04-30' } });
  });
});

describe('cost model', () => {
  it('counts ascending pages net of the overlap, then one tail page', () => {
    expect(pagesToEnd(100, 10, 2)).toBe(1);
    expect(pagesToEnd(TAIL_ROWS / 1.1 - 1, 10, 2)).toBe(1);
    expect(pagesToEnd(2000, 50, 2)).toBe(1 + Math.ceil((2200 - TAIL_ROWS) / 400));
  });

  it('pages a moderate tile and splits a very dense one', () => {
    expect(
      decideSplit({ perDay: 20, remainingDays: 60, overlapDays: 2, levels: [[0.25, 0.25, 0.25, 0.25]] })
        .action,
    ).toBe('advance');
    const dense = decideSplit({
      perDay: 400,
      remainingDays: 60,
      overlapDays: 2,
      levels: [[0.25, 0.25, 0.25, 0.25]],
    });
    expect(dense).toMatchObject({ action: 'split', level: 1 });
  });

  it('splits deeper only where the rows are: a sparse quadrant stays one circle', () => {
    // A hot spot in quadrant 0 (85 % of the rows, spread over its own four quadrants); the other
    // three quadrants hold 5 % each. A uniform split would ask 16 circles, 12 of them nearly empty.
    const leaf = (id: number, share: number) => ({ id, share, children: [] });
    const tree = [
      { id: 0, share: 0.85, children: [10, 11, 12, 13].map((id) => leaf(id, 0.2125)) },
      { id: 1, share: 0.05, children: [20, 21, 22, 23].map((id) => leaf(id, 0.0125)) },
      { id: 2, share: 0.05, children: [30, 31, 32, 33].map((id) => leaf(id, 0.0125)) },
      { id: 3, share: 0.05, children: [40, 41, 42, 43].map((id) => leaf(id, 0.0125)) },
    ];
    const c = { perDay: 400, remainingDays: 30, overlapDays: 2 };
    const uniform = decideSplit({
      ...c,
      levels: [
        [0.85, 0.05, 0.05, 0.05],
        [...Array<number>(4).fill(0.2125), ...Array<number>(12).fill(0.0125)],
      ],
    });
    const adaptive = decideSplit({ ...c, levels: [], tree });
    expect(adaptive).toMatchObject({ action: 'split', cut: [10, 11, 12, 13, 1, 2, 3] });
    expect(adaptive.estimate).toBeLessThan(uniform.estimate);
  });
});

describe('a page asked with no since (the window start)', () => {
  const open = (over: Partial<JobView> = {}) => job({ since: NO_SINCE, ...over });

  it('moves on only past its first day, so the next since lies inside the window', () => {
    // First report 05-01 00:30 EDT; 500 rows over 5 days: R − 38 h is on 05-04, next since 05-03 > 05-01.
    const out = decide(open(), rows(500, '2025-05-01T04:30:00Z', 5), ctx);
    expect(out.kind === 'continue' || out.kind === 'split-space').toBe(true);
    if (out.kind !== 'continue' && out.kind !== 'split-space') return;
    expect(out.proven! > '2025-05-01').toBe(true);
  });

  it('that fills before its first day ends is split in space, each part asked again with no since, ascending', () => {
    // Only two days of reports: R − 38 h falls on the first day; any since from it could be too old.
    const out = decide(open(), rows(500, '2025-05-01T04:30:00Z', 2), ctx);
    expect(out.kind).toBe('split-space');
    if (out.kind !== 'split-space') return;
    expect(out.proven).toBeNull();
    expect(out.children.length).toBeGreaterThan(1);
    for (const c of out.children) expect(c.next).toMatchObject({ since: NO_SINCE, mode: 'asc' });
  });

  it('piled on one point: split by type with no since', () => {
    const out = decide(open(), rows(500, '2025-05-01T04:30:00Z', 1, true), ctx);
    expect(out.kind).toBe('split-types');
    if (out.kind !== 'split-types') return;
    expect(out.next.since).toBe(NO_SINCE);
  });
});
