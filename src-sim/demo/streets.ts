/**
 * The demo city's street network, named as its synthetic addresses are: every block row is an
 * east–west street ("W/E Synthetic Oak St", west/east of the centre column), every block column a
 * north–south avenue ("S/N Synthetic Elm Ave"). Each street is drawn from the centre outwards, so
 * its block numbers (100 × blocks from the centre) increase along it; it stops at the lake. Every
 * eighth row and column is a major road. Bridges cross the river.
 */
import { BLOCK_LAT, BLOCK_LON, columnStreetName, rowStreetName } from '../data/addresses';
import type { CityMap } from './cityMap';

export type Street = {
  name: string;
  kind: 'major_road' | 'minor_road';
  kind_detail: 'secondary' | 'residential';
  min_zoom: number;
  /** [lon, lat] from the centre outwards. */
  coordinates: [number, number][];
};

export type StreetNetwork = {
  streets: Street[];
  /** True when the block point (ix, iy) lies on the street its address names. */
  onItsStreet(ix: number, iy: number): boolean;
};

const MAJOR_EVERY = 8;
const key = (ix: number, iy: number) => `${ix},${iy}`;

export function streetNetwork(map: CityMap): StreetNetwork {
  const { extent, centre } = map;
  const minIx = Math.ceil(extent.minLon / BLOCK_LON);
  const maxIx = Math.floor(extent.maxLon / BLOCK_LON);
  const minIy = Math.ceil(extent.minLat / BLOCK_LAT);
  const maxIy = Math.floor(extent.maxLat / BLOCK_LAT);
  const land = (ix: number, iy: number) => !map.inLake(iy * BLOCK_LAT, ix * BLOCK_LON);
  const streets: Street[] = [];
  const covered = new Set<string>();

  /** Runs of land nodes along `nodes` (ordered outwards), each of two nodes or more, as streets. */
  const addRuns = (nodes: [number, number][], name: string, major: boolean, isRow: boolean) => {
    let run: [number, number][] = [];
    const flush = () => {
      if (run.length >= 2) {
        streets.push({
          name,
          kind: major ? 'major_road' : 'minor_road',
          kind_detail: major ? 'secondary' : 'residential',
          min_zoom: major ? 9 : 13,
          // The nodes are collinear: the two ends draw the same line.
          coordinates: [run[0] as [number, number], run[run.length - 1] as [number, number]].map(
            ([ix, iy]) => [ix * BLOCK_LON, iy * BLOCK_LAT],
          ),
        });
        for (const [ix, iy] of run) if ((((ix + iy) & 1) === 0) === isRow) covered.add(key(ix, iy));
      }
      run = [];
    };
    for (const n of nodes) {
      if (land(n[0], n[1])) run.push(n);
      else flush();
    }
    flush();
  };
  const span = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let i = from; from <= to ? i <= to : i >= to; i += from <= to ? 1 : -1) out.push(i);
    return out;
  };

  for (let iy = minIy; iy <= maxIy; iy++) {
    const major = iy % MAJOR_EVERY === 0;
    // West side holds dx < 0; it starts at the centre column so the street is continuous.
    addRuns(
      span(centre.ix, minIx).map((ix) => [ix, iy]),
      rowStreetName(iy, -1, map.cityIndex),
      major,
      true,
    );
    addRuns(
      span(centre.ix, maxIx).map((ix) => [ix, iy]),
      rowStreetName(iy, 0, map.cityIndex),
      major,
      true,
    );
  }
  for (let ix = minIx; ix <= maxIx; ix++) {
    const major = ix % MAJOR_EVERY === 0;
    addRuns(
      span(centre.iy, minIy).map((iy) => [ix, iy]),
      columnStreetName(ix, -1, map.cityIndex),
      major,
      false,
    );
    addRuns(
      span(centre.iy, maxIy).map((iy) => [ix, iy]),
      columnStreetName(ix, 0, map.cityIndex),
      major,
      false,
    );
  }
  return { streets, onItsStreet: (ix, iy) => covered.has(key(ix, iy)) };
}
