/**
 * Reference files an analyst adds for the locator (`blotter places add FILE`):
 * - street centre lines with address ranges: a zipped Shapefile (or a .shp with its .dbf beside
 *   it) of Census TIGER/Line EDGES or ADDRFEAT — FULLNAME and LFROMADD/LTOADD/RFROMADD/RTOADD
 *   (ADDRFEAT's LFROMHN/LTOHN/RFROMHN/RTOHN too); lines without a name or a range are left out;
 * - address points: a CSV or GeoJSON of points with a house number and a street (or one address
 *   column: "1234 N Main St"), and latitude/longitude (GeoJSON: the Point).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { BoundaryProblem } from '../../boundaries/boundaryFile';
import { readLineShapefile } from '../../boundaries/shapefileRead';
import { readZip, type ZipArchive, type ZipEntry } from '../../boundaries/zipRead';
import { CsvRecordReader, separatorOf } from '../csvRecords';
import { normalizeStreet, parseAddress } from './address';
import type { Segment } from './locator';

export type AddressPoint = { street: string; number: number; lat: number; lon: number };

export type Reference =
  | { kind: 'centre lines'; segments: Segment[]; skipped: number }
  | { kind: 'address points'; points: AddressPoint[]; skipped: number };

/** Bytes of a reference file read at all (a large county's EDGES zip is about 100 MB). */
const MAX_BYTES = 1024 * 1024 * 1024;

export class ReferenceProblem extends Error {}

/** A reference file; `name` (an upload's own name) says its kind by its extension. */
export function readReference(file: string, name = file): Reference {
  const size = statSync(file).size;
  if (size > MAX_BYTES) throw new ReferenceProblem(`${basename(name)} is larger than 1 GB.`);
  const ext = extname(name).toLowerCase();
  try {
    if (ext === '.zip') return centreLines(readZip(readFileSync(file)));
    if (ext === '.shp') return centreLines(folderOf(file));
    if (ext === '.csv' || ext === '.txt')
      return addressPointsCsv(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    if (ext === '.geojson' || ext === '.json') return addressPointsGeoJson(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof BoundaryProblem) throw new ReferenceProblem(error.message);
    throw error;
  }
  throw new ReferenceProblem(
    `${basename(name)}: a reference is a zipped Shapefile (or .shp) of street centre lines, or a CSV or GeoJSON of address points.`,
  );
}

/** A .shp with its .dbf, .prj and .cpg beside it, read as a zip of them. */
function folderOf(shp: string): ZipArchive {
  const stem = shp.slice(0, -4);
  const entries: ZipEntry[] = [];
  const files = new Map<string, string>();
  for (const ext of ['.shp', '.dbf', '.prj', '.cpg']) {
    for (const cased of [ext, ext.toUpperCase()]) {
      const f = stem + cased;
      if (!existsSync(f)) continue;
      const name = basename(stem) + ext;
      entries.push({ name, method: 0, compressed: 0, size: statSync(f).size, offset: 0 });
      files.set(name, join(dirname(f), basename(f)));
      break;
    }
  }
  return { entries, read: (e) => readFileSync(files.get(e.name) as string) };
}

/** A TIGER range cell → a house number ("1200", "12-34" Queens style, "" none). */
function houseNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const t = String(v).trim();
  const m = /^(\d+)(?:-(\d+))?/.exec(t);
  if (!m) return null;
  return m[2] !== undefined ? Number(m[1]) * 1000 + Number(m[2]) : Number(m[1]);
}

function field(props: Record<string, unknown>, ...names: string[]): unknown {
  for (const n of names) {
    for (const k of Object.keys(props)) if (k.toUpperCase() === n) return props[k];
  }
  return undefined;
}

function centreLines(zip: ZipArchive): Reference {
  const { fields, lines } = readLineShapefile(zip);
  const upper = fields.map((f) => f.toUpperCase());
  if (!upper.includes('FULLNAME') || !(upper.includes('LFROMADD') || upper.includes('LFROMHN')))
    throw new ReferenceProblem(
      `The Shapefile's lines carry no street names and address ranges (FULLNAME, LFROMADD/LTOADD/RFROMADD/RTOADD as TIGER/Line EDGES or ADDRFEAT write them); it has ${fields.slice(0, 12).join(', ')}.`,
    );
  const segments: Segment[] = [];
  let skipped = 0;
  for (const l of lines) {
    const p = l.properties;
    const street = normalizeStreet(String(field(p, 'FULLNAME') ?? ''));
    const range = (from: string[], to: string[]): [number, number] | null => {
      const a = houseNumber(field(p, ...from));
      const b = houseNumber(field(p, ...to));
      return a !== null && b !== null ? [a, b] : null;
    };
    const left = range(['LFROMADD', 'LFROMHN'], ['LTOADD', 'LTOHN']);
    const right = range(['RFROMADD', 'RFROMHN'], ['RTOADD', 'RTOHN']);
    const line = l.parts.flat() as [number, number][];
    if (street === '' || (!left && !right) || line.length < 2) {
      skipped++;
      continue;
    }
    segments.push({ street, left, right, line });
  }
  return { kind: 'centre lines', segments, skipped };
}

const NUMBER_COLUMNS = [
  'NUMBER',
  'HOUSE_NUMBER',
  'HOUSENUMBER',
  'HOUSE_NUM',
  'ADDR_NUM',
  'ADD_NUMBER',
  'ADDNUM',
  'HOUSENUM',
  'ADDR:HOUSENUMBER',
  'ST_NUM',
  'NUM',
];
const STREET_COLUMNS = [
  'STREET',
  'STREET_NAME',
  'STREETNAME',
  'ST_NAME',
  'FULLNAME',
  'FULL_STREET_NAME',
  'ADDR:STREET',
  'ROAD',
];
const ADDRESS_COLUMNS = ['ADDRESS', 'FULL_ADDRESS', 'FULLADDRESS', 'ADDR', 'SITE_ADDRESS', 'ADDRESS_FULL'];
const LAT_COLUMNS = ['LAT', 'LATITUDE', 'Y', 'POINT_Y'];
const LON_COLUMNS = ['LON', 'LNG', 'LONG', 'LONGITUDE', 'X', 'POINT_X'];

/** One address point's properties → a point, or null. */
function pointOf(props: Record<string, unknown>, lat: number, lon: number): AddressPoint | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    return null;
  if (lat === 0 && lon === 0) return null;
  const num = field(props, ...NUMBER_COLUMNS);
  const street = field(props, ...STREET_COLUMNS);
  if (num !== undefined && street !== undefined) {
    const n = houseNumber(num);
    const s = normalizeStreet(String(street ?? ''));
    return n !== null && s !== '' ? { street: s, number: n, lat, lon } : null;
  }
  const address = field(props, ...ADDRESS_COLUMNS);
  const parsed = address !== undefined ? parseAddress(String(address ?? '').split(',')[0] as string) : null;
  return parsed?.kind === 'number' && !parsed.isBlock
    ? { street: parsed.street, number: parsed.number, lat, lon }
    : parsed?.kind === 'number'
      ? { street: parsed.street, number: parsed.block, lat, lon }
      : null;
}

function noColumns(found: string[]): ReferenceProblem {
  return new ReferenceProblem(
    `An address point file needs a house number and a street (or one address column) and latitude/longitude; it has ${found.slice(0, 12).join(', ')}.`,
  );
}

function addressPointsCsv(text: string): Reference {
  const reader = new CsvRecordReader(separatorOf(text.slice(0, 4096)));
  const records = [...reader.push(text), ...reader.end()];
  const header = (records[0] ?? []).map((h) => h.trim());
  const upper = header.map((h) => h.toUpperCase());
  const la = upper.findIndex((h) => LAT_COLUMNS.includes(h));
  const lo = upper.findIndex((h) => LON_COLUMNS.includes(h));
  const hasAddress =
    upper.some((h) => ADDRESS_COLUMNS.includes(h)) ||
    (upper.some((h) => NUMBER_COLUMNS.includes(h)) && upper.some((h) => STREET_COLUMNS.includes(h)));
  if (la < 0 || lo < 0 || !hasAddress) throw noColumns(header);
  const points: AddressPoint[] = [];
  let skipped = 0;
  for (const r of records.slice(1)) {
    if (r.length === 1 && r[0] === '') continue;
    const props: Record<string, unknown> = {};
    header.forEach((h, k) => (props[h] = r[k]));
    const p = pointOf(props, Number(r[la]), Number(r[lo]));
    if (p) points.push(p);
    else skipped++;
  }
  return { kind: 'address points', points, skipped };
}

function addressPointsGeoJson(text: string): Reference {
  const doc = JSON.parse(text) as {
    features?: {
      geometry?: { type?: string; coordinates?: number[] };
      properties?: Record<string, unknown>;
    }[];
  };
  if (!Array.isArray(doc.features)) throw new ReferenceProblem('The GeoJSON is not a FeatureCollection.');
  const points: AddressPoint[] = [];
  let skipped = 0;
  for (const f of doc.features) {
    const c = f.geometry?.type === 'Point' ? f.geometry.coordinates : undefined;
    const p = c ? pointOf(f.properties ?? {}, Number(c[1]), Number(c[0])) : null;
    if (p) points.push(p);
    else skipped++;
  }
  if (points.length === 0 && doc.features.length > 0)
    throw noColumns(Object.keys(doc.features[0]?.properties ?? {}));
  return { kind: 'address points', points, skipped };
}
