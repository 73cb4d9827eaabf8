import { describe, expect, it } from 'vitest';
import { covers } from './coverage';
import { withMargin } from './extract/tileSet';

/** The Loop, and an area about 8 km north of it (Lincoln Park / Lakeview). */
const LOOP = { minLat: 41.87, maxLat: 41.89, minLon: -87.64, maxLon: -87.62 };
const NORTH = { minLat: 41.94, maxLat: 41.96, minLon: -87.66, maxLon: -87.64 };
/** What the extractor records: each area's box grown by the 1 km margin. */
const built = (...boxes: (typeof LOOP)[]) => ({ boxes: boxes.map((b) => withMargin(b, 1)), maxZoom: 15 });

describe('does the areas’ extract cover an area (box + 1 km, at its top zoom)', () => {
  it('covers the areas it was built for, and a smaller area inside one of them', () => {
    expect(covers(built(LOOP), LOOP)).toBe(true);
    expect(covers(built(LOOP), { minLat: 41.875, maxLat: 41.88, minLon: -87.635, maxLon: -87.63 })).toBe(
      true,
    );
  });

  it('does not cover an area away from them, nor one that reaches past the margin', () => {
    expect(covers(built(LOOP), NORTH)).toBe(false);
    // 2 km further east than the Loop's east edge: its own margin leaves the extract's tiles.
    expect(covers(built(LOOP), { ...LOOP, maxLon: LOOP.maxLon + 0.025 })).toBe(false);
  });

  it('covers an area spread over two built boxes that meet, but not over a gap between them', () => {
    const west = { minLat: 41.87, maxLat: 41.89, minLon: -87.7, maxLon: -87.66 };
    const east = { minLat: 41.87, maxLat: 41.89, minLon: -87.66, maxLon: -87.62 };
    expect(
      covers(built(west, east), { minLat: 41.875, maxLat: 41.885, minLon: -87.69, maxLon: -87.63 }),
    ).toBe(true);
    const farEast = { minLat: 41.87, maxLat: 41.89, minLon: -87.55, maxLon: -87.52 };
    expect(
      covers(built(west, farEast), { minLat: 41.875, maxLat: 41.885, minLon: -87.69, maxLon: -87.53 }),
    ).toBe(false);
  });

  it('after the extract is rebuilt for all the areas, covers the new one too', () => {
    expect(covers(built(LOOP, NORTH), NORTH)).toBe(true);
    expect(covers(built(LOOP, NORTH), LOOP)).toBe(true);
  });

  it('an extract with no boxes covers nothing', () => {
    expect(covers({ boxes: [], maxZoom: 15 }, LOOP)).toBe(false);
  });
});
