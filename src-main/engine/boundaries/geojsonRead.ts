/**
 * GeoJSON boundaries: a FeatureCollection, a Feature or a bare geometry; Polygon, MultiPolygon,
 * Point, MultiPoint (and those inside a GeometryCollection). Coordinates are [lon, lat] (RFC 7946);
 * an old-style `crs` naming a bundled State Plane or UTM zone or Web Mercator (EPSG code; what
 * ogr2ogr writes for a non-WGS 84 GeoJSON) is reprojected with the import mapping's `unprojector`.
 */
import type { LatLon, PolygonRings } from '../../../src-shared/geo';
import { unprojector, WEB_MERCATOR, zoneOf } from '../geo/projection';
import {
  BoundaryProblem,
  LIMITS,
  type Attribute,
  type BoundaryFeature,
  type BoundaryFile,
} from './boundaryFile';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function crsOf(doc: Json): { toLatLon: (c: unknown) => LatLon; crs: string } {
  const name = isObject(doc.crs) && isObject(doc.crs.properties) ? String(doc.crs.properties.name ?? '') : '';
  const epsg = /EPSG:{1,2}(\d+)$/i.exec(name)?.[1];
  // The parsed position itself, turned round in place: a 2M-corner file's 2M new pairs were
  // garbage the read's helper thread spent more time collecting than making.
  const plain = (c: unknown): LatLon => {
    const a = c as unknown[];
    const lat = Number(a[1]);
    a[1] = Number(a[0]);
    a[0] = lat;
    if (a.length > 2) a.length = 2;
    return a as unknown as LatLon;
  };
  if (!epsg || epsg === '4326' || epsg === '4269' || /CRS84/i.test(name))
    return { toLatLon: plain, crs: 'EPSG:4326' };
  const zone = zoneOf(Number(epsg));
  const mercator = WEB_MERCATOR.has(Number(epsg));
  if (!zone && !mercator)
    throw new BoundaryProblem(
      `The file's coordinates are in EPSG:${epsg}, which is not one of the bundled State Plane or UTM zones or Web Mercator; save it as EPSG:4326 (longitude/latitude).`,
    );
  const un = unprojector({ epsg: Number(epsg) });
  return {
    toLatLon: (c) => {
      const a = c as unknown[];
      const { lat, lon } = un(Number(a[0]), Number(a[1]));
      return [lat, lon];
    },
    crs: `EPSG:${epsg} (${zone ? zone.name : 'Web Mercator'}), reprojected to EPSG:4326`,
  };
}

function ringOf(c: unknown, toLatLon: (c: unknown) => LatLon): LatLon[] {
  if (!Array.isArray(c)) throw new Error('a ring is not a list of positions');
  const ring = c.map((p) => {
    if (!Array.isArray(p) || p.length < 2) throw new Error('a position is not [longitude, latitude]');
    return toLatLon(p);
  });
  const a = ring[0];
  const b = ring[ring.length - 1];
  if (ring.length > 1 && a && b && a[0] === b[0] && a[1] === b[1]) ring.pop();
  return ring;
}

type Parts = { polygons: PolygonRings[]; points: LatLon[]; lines: number };

/** GeometryCollections inside GeometryCollections, at most (RFC 7946 advises against any). */
const MAX_NESTING = 8;

function collect(g: unknown, toLatLon: (c: unknown) => LatLon, into: Parts, depth = 0): void {
  if (!isObject(g)) return;
  if (depth > MAX_NESTING)
    throw new Error(`its GeometryCollections are nested more than ${MAX_NESTING} deep`);
  const c = g.coordinates;
  const poly = (p: unknown): PolygonRings => {
    if (!Array.isArray(p)) throw new Error('a polygon is not a list of rings');
    return p.map((r) => ringOf(r, toLatLon));
  };
  switch (g.type) {
    case 'Polygon':
      into.polygons.push(poly(c));
      break;
    case 'MultiPolygon':
      if (!Array.isArray(c)) throw new Error('a MultiPolygon is not a list of polygons');
      c.forEach((p) => into.polygons.push(poly(p)));
      break;
    case 'Point':
      if (!Array.isArray(c)) throw new Error('a Point has no [longitude, latitude]');
      into.points.push(toLatLon(c));
      break;
    case 'MultiPoint':
      if (!Array.isArray(c)) throw new Error('a MultiPoint is not a list of positions');
      c.forEach((p) => into.points.push(toLatLon(p)));
      break;
    case 'GeometryCollection':
      (Array.isArray(g.geometries) ? g.geometries : []).forEach((x) => collect(x, toLatLon, into, depth + 1));
      break;
    case 'LineString':
    case 'MultiLineString':
      into.lines++;
      break;
    default:
      throw new Error(`its geometry type "${String(g.type)}" is not GeoJSON`);
  }
}

/** A property's value; a list or object is kept as its JSON text (refused when nested past reason). */
function attribute(v: unknown, feature: number, key: string): Attribute {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === undefined) return null;
  try {
    return JSON.stringify(v);
  } catch {
    throw new BoundaryProblem(
      `Feature ${feature}'s property "${key.slice(0, 100)}" is nested too deep to be kept as text.`,
    );
  }
}

/**
 * What a file may hold before it is parsed, counted on its text (strings too, so a little more
 * than it holds). Lists (`[`): every corner is one, so twice the corner limit leaves room for rings,
 * parts and listed properties. Objects (`{`): a feature is three (itself, its properties, its
 * geometry), so 50 a feature leaves room for object properties — 200 MB of `{},` parsed to 67
 * million objects ran the engine out of memory. Values (`,`): a corner is two numbers, so twelve
 * a corner leaves room for some 500 properties a feature at the feature limit — one list of 99
 * million numbers took 2.7 GB. A file past any is refused here, before JSON.parse builds it.
 */
const MAX_LISTS = LIMITS.vertices * 2;
const MAX_OBJECTS = LIMITS.features * 50;
const MAX_VALUES = LIMITS.vertices * 12;

function count(text: string, c: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0 && n <= max; i = text.indexOf(c, i + 1)) n++;
  return n;
}

export function readGeoJson(text: string): BoundaryFile {
  const refuse = (what: string, max: number) =>
    new BoundaryProblem(
      `The file holds more than ${max.toLocaleString('en-US')} ${what}; at most ${LIMITS.features.toLocaleString('en-US')} features and ${LIMITS.vertices.toLocaleString('en-US')} corners are read in one layer, so it was not read. Simplify it first.`,
    );
  if (count(text, '[', MAX_LISTS) > MAX_LISTS) throw refuse('coordinate lists', MAX_LISTS);
  if (count(text, '{', MAX_OBJECTS) > MAX_OBJECTS) throw refuse('objects', MAX_OBJECTS);
  if (count(text, ',', MAX_VALUES) > MAX_VALUES) throw refuse('values', MAX_VALUES);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new BoundaryProblem(
      `The file is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (!isObject(doc)) throw new BoundaryProblem('The file is not a GeoJSON object.');
  const { toLatLon, crs } = crsOf(doc);
  const list: unknown[] =
    doc.type === 'FeatureCollection'
      ? Array.isArray(doc.features)
        ? doc.features
        : []
      : doc.type === 'Feature'
        ? [doc]
        : [{ type: 'Feature', properties: {}, geometry: doc }];
  if (doc.type === 'FeatureCollection' && !Array.isArray(doc.features))
    throw new BoundaryProblem('The FeatureCollection has no "features" list.');
  const fields: string[] = [];
  const seen = new Set<string>();
  const features: BoundaryFeature[] = [];
  const skipped: BoundaryFile['skipped'] = [];
  list.forEach((f, i) => {
    const index = i + 1;
    if (!isObject(f)) return void skipped.push({ index, reason: 'it is not a Feature' });
    const properties: Record<string, Attribute> = {};
    if (isObject(f.properties))
      for (const [k, v] of Object.entries(f.properties)) {
        properties[k] = attribute(v, index, k);
        if (!seen.has(k)) {
          seen.add(k);
          fields.push(k);
        }
      }
    const parts: Parts = { polygons: [], points: [], lines: 0 };
    try {
      collect(f.geometry, toLatLon, parts);
    } catch (error) {
      throw new BoundaryProblem(
        `Feature ${index} cannot be read: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    if (parts.polygons.length > 0)
      features.push({ index, properties, geometry: { kind: 'polygons', polygons: parts.polygons } });
    else if (parts.points.length > 0)
      features.push({ index, properties, geometry: { kind: 'points', points: parts.points } });
    else
      skipped.push({
        index,
        reason: parts.lines > 0 ? 'it is a line, not an area or a point' : 'it has no geometry',
      });
  });
  return { format: 'geojson', features, fields, crs, skipped };
}
