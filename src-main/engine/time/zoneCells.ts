/**
 * The time zone of a whole 0.05° cell, when geo-tz's own boundary data says every point of the
 * cell is in the same zone — so `zoneAt` answers most points with one Map lookup on a numeric key.
 *
 * Exact by construction: geo-tz walks a quadtree of its data (`<data>/*.index.json`); a quad is
 * either one zone as a whole, a leaf of polygons to test the point against, ocean, or four
 * children. A cell is resolved only when it lies inside one quad at every step (no quad edge
 * crosses it) and that quad is a whole zone, or a leaf none of whose polygon edges comes within
 * a centimetre of the cell — then every polygon contains all of the cell or none of it, so the
 * cell's centre answers for every point. Anything else (a boundary through the cell, a quad edge,
 * ocean, the poles) is `null`: those points take geo-tz's exact lookup.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const CELL_DEGREES = 0.05;
const PAD = 1e-7; // degrees (~1 cm): a polygon edge this close to the cell counts as crossing it

type Ring = number[][];
type Geometry = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };
interface Feature {
  properties: { tzid: string };
  geometry: Geometry;
}
interface Leaf {
  pos: number;
  len: number;
}
type Node = { [child: string]: Node } | Leaf | number[] | undefined;
interface Index {
  timezones: string[];
  lookup: Node;
}

interface GeoTzData {
  index: Index;
  datFile: string;
  decode(bytes: Buffer): { features: Feature[] };
}

let data: GeoTzData | undefined;
const leaves = new Map<string, Feature[]>();

/** geo-tz's 1970 data set (the one `find` from 'geo-tz' reads) and its own geobuf decoder. */
function geoTz(): GeoTzData {
  if (data) return data;
  const requireHere = createRequire(import.meta.url);
  const main = requireHere.resolve('geo-tz');
  const requireGeoTz = createRequire(main);
  const geobuf = requireGeoTz('geobuf') as { decode(pbf: unknown): { features: Feature[] } };
  const PbfModule = requireGeoTz('pbf') as
    (new (b: Buffer) => unknown) | { default: new (b: Buffer) => unknown };
  const Pbf = typeof PbfModule === 'function' ? PbfModule : PbfModule.default;
  const dir = process.env.GEO_TZ_DATA_PATH ?? path.join(path.dirname(main), '..', 'data');
  const indexFile = path.join(path.dirname(main), '..', 'data', 'timezones-1970.geojson.index.json');
  data = {
    index: JSON.parse(readFileSync(indexFile, 'utf8')) as Index,
    datFile: path.join(dir, 'timezones-1970.geojson.geo.dat'),
    decode: (bytes) => geobuf.decode(new Pbf(bytes)),
  };
  return data;
}

function leafFeatures(key: string, leaf: Leaf): Feature[] {
  let features = leaves.get(key);
  if (!features) {
    const d = geoTz();
    const bytes = Buffer.alloc(leaf.len);
    const fd = openSync(d.datFile, 'r');
    try {
      readSync(fd, bytes, 0, leaf.len, leaf.pos);
    } finally {
      closeSync(fd);
    }
    features = d.decode(bytes).features;
    leaves.set(key, features);
  }
  return features;
}

/** The cell a point falls in, as one number (row-major over the globe). */
export function cellKey(lat: number, lon: number): number {
  return Math.floor((lat + 90) / CELL_DEGREES) * 8000 + Math.floor((lon + 180) / CELL_DEGREES);
}

/** The zone every point of the cell `key` is in, or null when the cell needs the exact lookup. */
export function resolveCell(key: number): string | null {
  const row = Math.floor(key / 8000);
  const col = key - row * 8000;
  // The cell's bounds, padded: a point that floor() put in this cell lies inside them.
  const south = row * CELL_DEGREES - 90 - PAD;
  const north = (row + 1) * CELL_DEGREES - 90 + PAD;
  const west = col * CELL_DEGREES - 180 - PAD;
  const east = (col + 1) * CELL_DEGREES - 180 + PAD;
  if (south < -89.9 || north > 89.9 || west < -179.9 || east > 179.9) return null;
  const { index } = geoTz();
  // The same quadtree walk as geo-tz's find, for the whole cell at once.
  let top = 89.9999;
  let bottom = -89.9999;
  let left = -179.9999;
  let right = 179.9999;
  let midLat = 0;
  let midLon = 0;
  let node: Node = index.lookup;
  let quadKey = '';
  for (;;) {
    const up = south >= midLat ? true : north < midLat ? false : undefined;
    const rightSide = west >= midLon ? true : east < midLon ? false : undefined;
    if (up === undefined || rightSide === undefined) return null; // a quad edge crosses the cell
    let child: string;
    if (up && rightSide) {
      child = 'a';
      bottom = midLat;
      left = midLon;
    } else if (up) {
      child = 'b';
      bottom = midLat;
      right = midLon;
    } else if (!rightSide) {
      child = 'c';
      top = midLat;
      right = midLon;
    } else {
      child = 'd';
      top = midLat;
      left = midLon;
    }
    quadKey += child;
    node = (node as { [child: string]: Node })[child];
    if (!node) return null; // ocean: the nautical zone of each point's longitude
    if (isLeaf(node)) {
      const features = leafFeatures(quadKey, node);
      if (features.some((f) => crosses(f.geometry, west, south, east, north))) return null;
      const lat = (south + north) / 2;
      const lon = (west + east) / 2;
      const inside = features.find((f) => contains(f.geometry, lon, lat));
      return inside ? inside.properties.tzid : null;
    }
    if (Array.isArray(node)) {
      const first = node[0];
      return first === undefined ? null : (index.timezones[first] ?? null);
    }
    midLat = (top + bottom) / 2;
    midLon = (left + right) / 2;
  }
}

function isLeaf(node: NonNullable<Node>): node is Leaf {
  const leaf = node as Partial<Leaf>;
  return typeof leaf.pos === 'number' && leaf.pos >= 0 && typeof leaf.len === 'number' && leaf.len > 0;
}

function rings(geometry: Geometry): Ring[] {
  return geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
}

/** Whether any edge of the geometry touches the rectangle. */
function crosses(geometry: Geometry, west: number, south: number, east: number, north: number): boolean {
  for (const ring of rings(geometry)) {
    for (let i = 1; i < ring.length; i++) {
      const [x1, y1] = ring[i - 1] as [number, number];
      const [x2, y2] = ring[i] as [number, number];
      if (segmentMeetsRect(x1, y1, x2, y2, west, south, east, north)) return true;
    }
  }
  return false;
}

/** Liang–Barsky: does the segment (x1,y1)–(x2,y2) meet the closed rectangle? */
export function segmentMeetsRect(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  west: number,
  south: number,
  east: number,
  north: number,
): boolean {
  if (Math.max(x1, x2) < west || Math.min(x1, x2) > east) return false;
  if (Math.max(y1, y2) < south || Math.min(y1, y2) > north) return false;
  const dx = x2 - x1;
  const dy = y2 - y1;
  let t0 = 0;
  let t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return (
    clip(-dx, x1 - west) && clip(dx, east - x1) && clip(-dy, y1 - south) && clip(dy, north - y1) && t0 <= t1
  );
}

/** Even–odd point in polygon (the point is far from every edge here, so there is no tie). */
function contains(geometry: Geometry, x: number, y: number): boolean {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const polygon of polygons) {
    let inside = false;
    for (const ring of polygon) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i] as [number, number];
        const [xj, yj] = ring[j] as [number, number];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
    }
    if (inside) return true;
  }
  return false;
}
