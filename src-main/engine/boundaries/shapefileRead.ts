/**
 * A zipped Shapefile: its `.shp` (polygons, points, multipoints, and lines for the locator's street
 * centre lines: `readLineShapefile`; Z and M variants read for X/Y),
 * `.dbf` attributes (text in the `.cpg`'s encoding, UTF-8 when absent and valid, else Windows-1252),
 * and `.prj`: projected coordinates are reprojected to EPSG:4326 with proj4, through the import
 * mapping's `unprojector` (one place for projections). Polygon rings follow the format's rule:
 * clockwise rings are outer boundaries, counter-clockwise ones holes of the outer ring holding them.
 */
import path from 'node:path';
import type { LatLon, PolygonRings } from '../../../src-shared/geo';
import { isBareNad27, unprojector, type Unproject } from '../geo/projection';
import {
  BoundaryProblem,
  LIMITS,
  type Attribute,
  type BoundaryFeature,
  type BoundaryFile,
} from './boundaryFile';
import { decodeWindows1252 } from '../files/windows1252';
import { readZip, type ZipArchive } from './zipRead';

type XY = [number, number];

/** Bytes of a .prj or .cpg read (a WKT is a few kB). */
const MAX_SIDECAR = 64 * 1024;

/** Twice the signed area in source X/Y (negative: clockwise). */
function area2(ring: readonly XY[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += (ring[j] as XY)[0] * (ring[i] as XY)[1] - (ring[i] as XY)[0] * (ring[j] as XY)[1];
  }
  return a;
}

function insideXY(x: number, y: number, ring: readonly XY[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as XY;
    const [xj, yj] = ring[j] as XY;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Rings → polygons: each clockwise ring an outer, each counter-clockwise one a hole of the outer holding it. */
export function assembleRings(rings: XY[][]): XY[][][] {
  const outers: XY[][][] = [];
  const holes: XY[][] = [];
  for (const ring of rings) {
    if (area2(ring) <= 0) outers.push([ring]);
    else holes.push(ring);
  }
  if (outers.length === 0) return holes.map((h) => [h]); // all counter-clockwise: read them as outers
  for (const hole of holes) {
    const [x, y] = hole[0] as XY;
    const home = outers.find((o) => insideXY(x, y, o[0] as XY[]));
    if (home) home.push(hole);
    else outers.push([hole.slice().reverse()]);
  }
  return outers;
}

type ShapeRecord =
  | { kind: 'polygons'; rings: XY[][] }
  | { kind: 'points'; points: XY[] }
  | { kind: 'null' }
  | { kind: 'line'; parts: XY[][] };

/** How much one .shp may hold: a boundary layer's LIMITS, or more for a county's street lines. */
type ShpLimits = { features: number; vertices: number };

/** A county's TIGER/Line EDGES: some 100,000–600,000 lines of a few corners each. */
export const LINE_LIMITS: ShpLimits = { features: 2_000_000, vertices: 30_000_000 };

const damaged = (record: number, why: string) =>
  new BoundaryProblem(`Record ${record} of the .shp is damaged: ${why}.`);

/**
 * The .shp's records. Every count and offset a record states is checked against the record's own
 * length before anything is read (a lying header cannot make the reader run past its record or
 * build millions of corners), and the file stops being read once it holds more features or corners
 * than LIMITS allows (an entry can inflate to far more than the zip's size).
 */
function readShp(buf: Buffer, limits: ShpLimits = LIMITS): ShapeRecord[] {
  const maxRecords = limits.features * 10;
  if (buf.length < 100 || buf.readInt32BE(0) !== 9994)
    throw new BoundaryProblem('The .shp is not a shapefile (wrong file code).');
  const out: ShapeRecord[] = [];
  let p = 100;
  let features = 0;
  let corners = 0;
  const count = (n: number) => {
    features++;
    corners += n;
    if (features > limits.features)
      throw new BoundaryProblem(
        `The .shp holds more than ${limits.features.toLocaleString('en-US')} features; Blotter reads at most that many in one layer.`,
      );
    if (corners > limits.vertices)
      throw new BoundaryProblem(
        `The .shp's features have more than ${limits.vertices.toLocaleString('en-US')} corners in all; simplify them first.`,
      );
  };
  while (p + 8 <= buf.length) {
    const record = out.length + 1;
    if (record > maxRecords)
      throw new BoundaryProblem(
        `The .shp holds more than ${maxRecords.toLocaleString('en-US')} records; Blotter reads at most that many.`,
      );
    const len = buf.readInt32BE(p + 4) * 2;
    const start = p + 8;
    p = start + len;
    if (len < 4 || p > buf.length) throw new BoundaryProblem(`The .shp is cut short at record ${record}.`);
    const type = buf.readInt32LE(start);
    if (type === 0) out.push({ kind: 'null' });
    else if (type === 1 || type === 11 || type === 21) {
      if (len < 20) throw damaged(record, 'a point shorter than its coordinates');
      count(1);
      out.push({ kind: 'points', points: [[buf.readDoubleLE(start + 4), buf.readDoubleLE(start + 12)]] });
    } else if (type === 8 || type === 18 || type === 28) {
      if (len < 40) throw damaged(record, 'shorter than its header');
      const n = buf.readInt32LE(start + 36);
      if (n < 0 || start + 40 + 16 * n > p) throw damaged(record, `${n} points do not fit in its length`);
      count(n);
      const points: XY[] = [];
      for (let i = 0; i < n; i++)
        points.push([buf.readDoubleLE(start + 40 + 16 * i), buf.readDoubleLE(start + 48 + 16 * i)]);
      out.push({ kind: 'points', points });
    } else if (type === 3 || type === 13 || type === 23 || type === 5 || type === 15 || type === 25) {
      // PolyLine and Polygon records share their layout: box, parts, points, part starts, X/Y.
      if (len < 44) throw damaged(record, 'shorter than its header');
      const parts = buf.readInt32LE(start + 36);
      const n = buf.readInt32LE(start + 40);
      const first = start + 44;
      const pts = first + 4 * parts;
      if (parts < 0 || n < 0 || pts + 16 * n > p)
        throw damaged(record, `${parts} parts of ${n} points do not fit in its length`);
      count(n);
      const line = type === 3 || type === 13 || type === 23;
      const rings: XY[][] = [];
      for (let k = 0; k < parts; k++) {
        const from = buf.readInt32LE(first + 4 * k);
        const to = k + 1 < parts ? buf.readInt32LE(first + 4 * (k + 1)) : n;
        if (from < 0 || to < from || to > n) throw damaged(record, `part ${k + 1} points outside its points`);
        const ring: XY[] = [];
        for (let i = from; i < to; i++)
          ring.push([buf.readDoubleLE(pts + 16 * i), buf.readDoubleLE(pts + 16 * i + 8)]);
        const a = ring[0];
        const b = ring[ring.length - 1];
        if (!line && ring.length > 1 && a && b && a[0] === b[0] && a[1] === b[1]) ring.pop();
        rings.push(ring);
      }
      out.push(line ? { kind: 'line', parts: rings } : { kind: 'polygons', rings });
    } else
      throw new BoundaryProblem(
        `Record ${record} of the .shp has shape type ${type}, which Blotter does not read.`,
      );
  }
  return out;
}

/**
 * The .dbf's text decoder by its .cpg: UTF-8; Windows-1252 for `1252`, `ANSI 1252`, Latin-1 labels
 * (`ISO 88591`, as ArcGIS writes it — Windows-1252 is the same for every printable Latin-1
 * character) or a label the platform does not know; another code page by its name. Without a .cpg,
 * UTF-8 when the bytes are UTF-8, else Windows-1252 (what such a file almost always is).
 */
function decoderOf(cpg: string | null): (b: Buffer) => string {
  const label = cpg?.trim().toLowerCase() ?? '';
  if (label && !/utf-?8|65001/.test(label)) {
    if (/1252|8859[-_ ]?1$|88591|latin-?1|^ansi$/.test(label)) return decodeWindows1252;
    try {
      const d = new TextDecoder(
        /^(cp|ansi[ _]?)\d+$/.test(label) ? `windows-${label.replace(/\D/g, '')}` : label,
      );
      return (b) => d.decode(b);
    } catch {
      return decodeWindows1252;
    }
  }
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  return (b) => {
    try {
      return utf8.decode(b);
    } catch {
      return decodeWindows1252(b);
    }
  };
}

type Field = { name: string; type: string; length: number };

function readDbf(
  buf: Buffer,
  decode: (b: Buffer) => string,
  wanted: number,
): { fields: string[]; rows: Record<string, Attribute>[] } {
  if (buf.length < 32) throw new BoundaryProblem('The .dbf is cut short.');
  // Rows past the .shp's records are never used, so never read (a header may claim 4 billion).
  const count = Math.min(buf.readUInt32LE(4), wanted);
  const headerLen = buf.readUInt16LE(8);
  const recordLen = buf.readUInt16LE(10);
  const fields: Field[] = [];
  for (let p = 32; p + 32 <= headerLen && buf[p] !== 0x0d; p += 32) {
    const raw = buf.subarray(p, p + 11);
    const nul = raw.indexOf(0);
    fields.push({
      name: decode(raw.subarray(0, nul < 0 ? 11 : nul)).trim(),
      type: String.fromCharCode(buf[p + 11] as number),
      length: buf[p + 16] as number,
    });
  }
  const width = fields.reduce((sum, f) => sum + f.length, 1);
  if (count > 0 && recordLen < width)
    throw new BoundaryProblem(
      `The .dbf is damaged: its records are ${recordLen} bytes long but its fields need ${width}.`,
    );
  const rows: Record<string, Attribute>[] = [];
  for (let r = 0; r < count; r++) {
    const start = headerLen + r * recordLen;
    if (start + recordLen > buf.length)
      throw new BoundaryProblem(`The .dbf is cut short at record ${r + 1}.`);
    const row: Record<string, Attribute> = {};
    let q = start + 1;
    for (const f of fields) {
      const text = decode(buf.subarray(q, q + f.length)).trim();
      q += f.length;
      if (f.type === 'N' || f.type === 'F')
        row[f.name] = text === '' || !Number.isFinite(Number(text)) ? null : Number(text);
      else if (f.type === 'L')
        row[f.name] = /^[TtYy]$/.test(text) ? true : /^[FfNn]$/.test(text) ? false : null;
      else if (f.type === 'D')
        row[f.name] = /^\d{8}$/.test(text)
          ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}`
          : null;
      else row[f.name] = text === '' ? null : text;
    }
    rows.push(row);
  }
  return { fields: fields.map((f) => f.name), rows };
}

/** The reprojection a .prj asks for; null when it is already geographic (degrees). */
function projectionOf(prj: string | null): { unproject: Unproject | null; crs: string } {
  if (!prj || !prj.trim()) return { unproject: null, crs: 'EPSG:4326 (no .prj: read as longitude/latitude)' };
  const name = /^\s*(?:PROJCS|PROJCRS)\s*\[\s*"([^"]*)"/i.exec(prj)?.[1];
  if (!name && !isBareNad27(prj)) return { unproject: null, crs: 'EPSG:4326' };
  try {
    if (!name)
      // Degrees on NAD27: shifted to WGS 84 as a projected NAD27 file is (projection.ts).
      return {
        unproject: unprojector({ wkt: prj }),
        crs: 'NAD27 (from the .prj), shifted to EPSG:4326 (within about 10 m)',
      };
    const shifted = isBareNad27(prj) ? ' (NAD27 shifted by its contiguous-US mean, within about 10 m)' : '';
    return {
      unproject: unprojector({ wkt: prj }),
      crs: `${name} (from the .prj), reprojected to EPSG:4326${shifted}`,
    };
  } catch (error) {
    throw new BoundaryProblem(
      `The .prj's system "${name ?? 'NAD27'}" cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export function readShapefileZip(bytes: Buffer): BoundaryFile {
  return readShapefile(readZip(bytes));
}

/** The one shapefile of a zip: its records, attributes and reprojection. */
function openShapefile(
  zip: ZipArchive,
  limits: ShpLimits,
): {
  records: ShapeRecord[];
  dbf: { fields: string[]; rows: Record<string, Attribute>[] };
  crs: string;
  toLatLon: (p: XY) => LatLon;
} {
  const shps = zip.entries.filter(
    (e) => e.name.toLowerCase().endsWith('.shp') && !path.basename(e.name).startsWith('._'),
  );
  if (shps.length === 0) throw new BoundaryProblem('The zip holds no .shp file.');
  if (shps.length > 1)
    throw new BoundaryProblem(
      `The zip holds ${shps.length} shapefiles (${shps.map((s) => s.name).join(', ')}); zip one layer at a time.`,
    );
  const shp = shps[0]!;
  const stem = shp.name.slice(0, -4).toLowerCase();
  const part = (ext: string, cap?: number) => {
    const e = zip.entries.find((x) => x.name.toLowerCase() === stem + ext);
    if (e && cap !== undefined && e.size > cap)
      throw new BoundaryProblem(
        `The ${ext} is ${e.size.toLocaleString('en-US')} bytes; at most ${cap / 1024} kB is read.`,
      );
    return e ? zip.read(e) : null;
  };
  const records = readShp(zip.read(shp), limits);
  const cpg = part('.cpg', MAX_SIDECAR);
  const dbfBytes = part('.dbf');
  const dbf = dbfBytes
    ? readDbf(dbfBytes, decoderOf(cpg ? cpg.toString('latin1') : null), records.length)
    : { fields: [], rows: [] };
  const prj = part('.prj', MAX_SIDECAR);
  const { unproject, crs } = projectionOf(prj ? prj.toString('utf8') : null);
  const toLatLon = (p: XY): LatLon => {
    if (!unproject) return [p[1], p[0]];
    const { lat, lon } = unproject(p[0], p[1]);
    return [lat, lon];
  };
  return { records, dbf, crs, toLatLon };
}

/** The one shapefile of a zip already opened (readBoundaries.ts first looks whether it is a KMZ). */
export function readShapefile(zip: ZipArchive): BoundaryFile {
  const { records, dbf, crs, toLatLon } = openShapefile(zip, LIMITS);
  const features: BoundaryFeature[] = [];
  const skipped: BoundaryFile['skipped'] = [];
  records.forEach((rec, i) => {
    const index = i + 1;
    const properties = dbf.rows[i] ?? {};
    if (rec.kind === 'null') return void skipped.push({ index, reason: 'it has no geometry' });
    if (rec.kind === 'line')
      return void skipped.push({ index, reason: 'it is a line, not an area or a point' });
    if (rec.kind === 'points') {
      features.push({ index, properties, geometry: { kind: 'points', points: rec.points.map(toLatLon) } });
      return;
    }
    const polygons: PolygonRings[] = assembleRings(rec.rings).map((rings) =>
      rings.map((r) => r.map(toLatLon)),
    );
    features.push({ index, properties, geometry: { kind: 'polygons', polygons } });
  });
  return { format: 'shapefile', features, fields: dbf.fields, crs, skipped };
}

/** A line of a shapefile of lines: its attributes and its parts, [lat, lon]. */
export type ShapefileLine = { index: number; properties: Record<string, Attribute>; parts: LatLon[][] };

/**
 * The line records (PolyLine, with its Z and M variants) of a zipped Shapefile, such as a county's
 * TIGER/Line EDGES or ADDRFEAT street centre lines, with their attributes, in EPSG:4326. Other
 * records are left out. A county's lines are many: LINE_LIMITS, not a boundary layer's.
 */
export function readLineShapefile(zip: ZipArchive): {
  fields: string[];
  crs: string;
  lines: ShapefileLine[];
} {
  const { records, dbf, crs, toLatLon } = openShapefile(zip, LINE_LIMITS);
  const lines: ShapefileLine[] = [];
  records.forEach((rec, i) => {
    if (rec.kind !== 'line') return;
    lines.push({ index: i + 1, properties: dbf.rows[i] ?? {}, parts: rec.parts.map((p) => p.map(toLatLon)) });
  });
  return { fields: dbf.fields, crs, lines };
}
