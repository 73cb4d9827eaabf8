/**
 * The demo city's real streets: the San Francisco Protomaps v4 archive (data/, © OpenStreetMap
 * contributors, ODbL) read once at start-up. Its zoom-14 tiles are decoded (@mapbox/vector-tile, the
 * decoder the basemap tests already use) into block points: every named street (the `roads` layer's
 * major and minor roads) is walked every SAMPLE_M metres, a sample in water (the `water` layer) or
 * in a park (`landuse` parks, woods, cemeteries, sports grounds…) is dropped, and the samples of one
 * street are grouped into blocks numbered upwards from the end nearest downtown, SF-style
 * ("1200 BLOCK OF MISSION ST"). All incidents of a block share its point, as block-geocoded data does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { COMPRESSION, parseDirectory, parseHeader, zxyOf, type PmEntry } from '../../src-shared/pmtiles';
import { round6 } from '../data/addresses';
import { hashInts } from '../data/prng';

export const SF_ARCHIVE = 'san-francisco.pmtiles';
/** The zoom whose tiles carry every street (the archive's deepest). */
export const STREET_ZOOM = 14;
const SAMPLE_M = 30;
/** One block of house numbers: about a city block along the street. */
const BLOCK_M = 110;
/** Downtown (the foot of Market Street): block numbers grow away from it. */
const ORIGIN = { lat: 37.7946, lon: -122.395 };

const ROAD_KINDS = new Set(['major_road', 'minor_road']);
const MINOR_DETAILS = new Set(['residential', 'unclassified', 'living_street', undefined, '']);
/** Land uses with no street addresses on them: parks, woods, sports grounds and the like. */
export const PARK_KINDS = new Set([
  'park',
  'national_park',
  'nature_reserve',
  'forest',
  'wood',
  'golf_course',
  'cemetery',
  'zoo',
  'village_green',
  'grass',
  'garden',
  'recreation_ground',
  'playground',
  'pitch',
  'dog_park',
  'grassland',
  'meadow',
  'scrub',
  'wetland',
  'beach',
  'sand',
]);

/** The archive's bytes: beside this module in the sources, under src-sim/demo/data from the working directory, or in a packaged app's resources. */
export function sfArchiveBytes(): Uint8Array {
  // Packaged, electron-builder puts it in the resources folder (electron-builder.yml extraResources).
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    join(fileURLToPath(new URL('.', import.meta.url)), 'data', SF_ARCHIVE),
    join(process.cwd(), 'src-sim', 'demo', 'data', SF_ARCHIVE),
    ...(resources ? [join(resources, 'demo', SF_ARCHIVE)] : []),
  ];
  for (const file of candidates) {
    try {
      return new Uint8Array(readFileSync(file));
    } catch {
      // try the next place
    }
  }
  throw new Error(`The demo basemap ${SF_ARCHIVE} was not found (looked in ${candidates.join(', ')}).`);
}

/** A polygon feature's edges (x0,y0,x1,y1 in tile units) bucketed by horizontal band, for fast ray tests. */
type Poly = {
  bands: number[][];
  band: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
};

export type StreetTile = { x: number; y: number; tile: VectorTile };

/** Every zoom-14 tile of the archive, decoded. */
export function decodeStreetTiles(bytes: Uint8Array): StreetTile[] {
  const h = parseHeader(bytes);
  const gunzip = (b: Uint8Array) =>
    h.internalCompression === COMPRESSION.gzip ? new Uint8Array(gunzipSync(b)) : b;
  const readDir = (offset: number, length: number): PmEntry[] =>
    parseDirectory(gunzip(bytes.subarray(offset, offset + length)));
  const entries: PmEntry[] = [];
  const walk = (dir: PmEntry[]) => {
    for (const e of dir) {
      if (e.runLength === 0) walk(readDir(h.leafOffset + e.offset, e.length));
      else entries.push(e);
    }
  };
  walk(readDir(h.rootOffset, h.rootLength));
  const out: StreetTile[] = [];
  for (const e of entries) {
    for (let k = 0; k < e.runLength; k++) {
      const { z, x, y } = zxyOf(e.tileId + k);
      if (z !== STREET_ZOOM) continue;
      const raw = bytes.subarray(h.dataOffset + e.offset, h.dataOffset + e.offset + e.length);
      const data = h.tileCompression === COMPRESSION.gzip ? new Uint8Array(gunzipSync(raw)) : raw;
      out.push({ x, y, tile: new VectorTile(new Pbf(data)) });
    }
  }
  return out;
}

export function polysOf(tile: VectorTile, layer: string, keep: (f: VectorTileFeature) => boolean): Poly[] {
  const l = tile.layers[layer];
  const out: Poly[] = [];
  for (let i = 0; i < (l?.length ?? 0); i++) {
    const f = l!.feature(i);
    if (f.type !== 3 || !keep(f)) continue;
    const rings = f.loadGeometry();
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    let vertices = 0;
    for (const ring of rings)
      for (const p of ring) {
        vertices++;
        minX = Math.min(minX, p.x);
        maxX = Math.max(maxX, p.x);
        minY = Math.min(minY, p.y);
        maxY = Math.max(maxY, p.y);
      }
    // About 16 edges a band: small shapes are one band, a coastline many.
    const bands = Math.max(1, Math.min(256, Math.ceil(vertices / 16)));
    const band = Math.max(1, (maxY - minY) / bands);
    const lists: number[][] = Array.from({ length: bands + 1 }, () => []);
    for (const ring of rings) {
      for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) {
        const a = ring[k]!;
        const b = ring[j]!;
        if (a.y === b.y) continue;
        const from = Math.floor((Math.min(a.y, b.y) - minY) / band);
        const to = Math.min(bands, Math.floor((Math.max(a.y, b.y) - minY) / band));
        for (let q = from; q <= to; q++) lists[q]!.push(a.x, a.y, b.x, b.y);
      }
    }
    out.push({ bands: lists, band, minX, minY, maxX, maxY });
  }
  return out;
}

/** Even–odd over all rings of a feature (outer rings and holes alike). */
export function inPolys(polys: readonly Poly[], x: number, y: number): boolean {
  for (const p of polys) {
    if (x < p.minX || x > p.maxX || y < p.minY || y > p.maxY) continue;
    const e = p.bands[Math.min(p.bands.length - 1, Math.floor((y - p.minY) / p.band))]!;
    let inside = false;
    for (let i = 0; i < e.length; i += 4) {
      const xi = e[i]!;
      const yi = e[i + 1]!;
      const xj = e[i + 2]!;
      const yj = e[i + 3]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    if (inside) return true;
  }
  return false;
}

/** Tile units → degrees at zoom 14. */
export function tileToLatLon(tx: number, ty: number, px: number, py: number, extent: number) {
  const n = 2 ** STREET_ZOOM;
  const lon = ((tx + px / extent) / n) * 360 - 180;
  const m = Math.PI * (1 - (2 * (ty + py / extent)) / n);
  return { lat: (Math.atan(Math.sinh(m)) * 180) / Math.PI, lon };
}

/** Degrees → tile units of tile (tx, ty) at zoom 14. */
export function latLonToTile(tx: number, ty: number, lat: number, lon: number, extent: number) {
  const n = 2 ** STREET_ZOOM;
  const r = (lat * Math.PI) / 180;
  const fy = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  return { px: (((lon + 180) / 360) * n - tx) * extent, py: (fy - ty) * extent };
}

const AROUND = [
  [0, 0],
  [3, 0],
  [-3, 0],
  [0, 3],
  [0, -3],
] as const;

/** A road of the archive that gets addresses: a named major or minor street (no links, ramps, service alleys). */
export function isAddressedRoad(props: Record<string, unknown>): boolean {
  const name = props.name;
  if (typeof name !== 'string' || !name.trim()) return false;
  if (!ROAD_KINDS.has(String(props.kind)) || props.is_link === true) return false;
  if (props.kind === 'minor_road' && !MINOR_DETAILS.has(props.kind_detail as string | undefined))
    return false;
  return true;
}

export const isWater = (_f: VectorTileFeature) => true;
export const isPark = (f: VectorTileFeature) => PARK_KINDS.has(String(f.properties.kind));

const SUFFIXES: Record<string, string> = {
  Street: 'ST',
  Avenue: 'AVE',
  Boulevard: 'BLVD',
  Drive: 'DR',
  Road: 'RD',
  Place: 'PL',
  Lane: 'LN',
  Court: 'CT',
  Terrace: 'TER',
  Alley: 'ALY',
  Highway: 'HWY',
  Circle: 'CIR',
  Way: 'WAY',
  Parkway: 'PKWY',
  Plaza: 'PLZ',
};

/** A street's name as police block addresses print it: "Mission Street" → "MISSION ST". */
export function addressStreetName(name: string): string {
  const words = name.trim().split(/\s+/);
  const last = words[words.length - 1] ?? '';
  if (words.length > 1 && SUFFIXES[last]) words[words.length - 1] = SUFFIXES[last] as string;
  return words.join(' ').toUpperCase();
}

const M_PER_DEG = 111_320;
const KX = Math.cos((ORIGIN.lat * Math.PI) / 180);
const metres = (aLat: number, aLon: number, bLat: number, bLon: number) =>
  Math.hypot((aLat - bLat) * M_PER_DEG, (aLon - bLon) * M_PER_DEG * KX);

export type Block = {
  lat: number;
  lon: number;
  address: string;
  street: string;
  major: boolean;
  /** Length of street it stands for, metres. */
  length: number;
};

/** The blocks of the archive's named streets, out of water and parks; deterministic in the archive. */
export function streetBlocks(tiles: readonly StreetTile[]): Block[] {
  type Sample = { lat: number; lon: number; major: boolean };
  const byStreet = new Map<string, Sample[]>();
  for (const { x: tx, y: ty, tile } of tiles) {
    const roads = tile.layers.roads;
    if (!roads) continue;
    const extent = roads.extent;
    const water = polysOf(tile, 'water', isWater);
    const parks = polysOf(tile, 'landuse', isPark);
    const step = (SAMPLE_M / 1934) * extent; // a z14 tile is ~1934 m across at SF's latitude
    for (let i = 0; i < roads.length; i++) {
      const f = roads.feature(i);
      if (f.type !== 2 || !isAddressedRoad(f.properties)) continue;
      const street = addressStreetName(String(f.properties.name));
      const major = f.properties.kind === 'major_road';
      const list = byStreet.get(street) ?? [];
      for (const line of f.loadGeometry()) {
        let carry = step / 2;
        for (let j = 1; j < line.length; j++) {
          const a = line[j - 1]!;
          const b = line[j]!;
          const len = Math.hypot(b.x - a.x, b.y - a.y);
          for (let d = carry; d < len; d += step) {
            const px = a.x + ((b.x - a.x) * d) / len;
            const py = a.y + ((b.y - a.y) * d) / len;
            // The tile's own square only (its buffer belongs to the neighbours).
            if (px < 0 || py < 0 || px >= extent || py >= extent) continue;
            // The point as stored (6 decimals), and a metre or two around it: a street along a
            // park's or the shore's edge keeps only the samples clear of it.
            const at = tileToLatLon(tx, ty, px, py, extent);
            const [lat, lon] = [round6(at.lat), round6(at.lon)];
            const back = latLonToTile(tx, ty, lat, lon, extent);
            const clear = AROUND.every(
              ([dx, dy]) =>
                !inPolys(water, back.px + dx, back.py + dy) && !inPolys(parks, back.px + dx, back.py + dy),
            );
            if (clear) list.push({ lat, lon, major });
          }
          carry = (((carry - len) % step) + step) % step;
        }
      }
      byStreet.set(street, list);
    }
  }
  const blocks: Block[] = [];
  for (const street of [...byStreet.keys()].sort()) {
    const samples = byStreet.get(street)!;
    if (samples.length === 0) continue;
    let start = samples[0]!;
    let best = Infinity;
    for (const s of samples) {
      const d = metres(s.lat, s.lon, ORIGIN.lat, ORIGIN.lon);
      if (d < best) [best, start] = [d, s];
    }
    const groups = new Map<number, Sample[]>();
    for (const s of samples) {
      const n = Math.floor(metres(s.lat, s.lon, start.lat, start.lon) / BLOCK_M) * 100;
      const g = groups.get(n) ?? [];
      g.push(s);
      groups.set(n, g);
    }
    for (const n of [...groups.keys()].sort((a, b) => a - b)) {
      const g = groups.get(n)!;
      // The block's point: its sample nearest the group's centre (a point on the street itself).
      const cLat = g.reduce((t, s) => t + s.lat, 0) / g.length;
      const cLon = g.reduce((t, s) => t + s.lon, 0) / g.length;
      let at = g[0]!;
      let near = Infinity;
      for (const s of g) {
        const d = metres(s.lat, s.lon, cLat, cLon);
        if (d < near) [near, at] = [d, s];
      }
      blocks.push({
        lat: round6(at.lat),
        lon: round6(at.lon),
        address: `${n} BLOCK OF ${street}`,
        street,
        major: g.some((s) => s.major),
        length: g.length * SAMPLE_M,
      });
    }
  }
  return blocks;
}

/** A stable uniform number in (0, 1] for a block (its repeat-place weight). */
export const blockHash = (i: number): number => ((hashInts(i, 0x5f, 3) >>> 0) + 1) / 2 ** 32;
