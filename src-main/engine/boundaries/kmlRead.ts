/**
 * KML boundaries (2.2): each Placemark with a Polygon, a Point or a MultiGeometry of them is a
 * feature; its `name` and its ExtendedData (`Data`/`value`, `SchemaData`/`SimpleData`) are its
 * attributes. KML is always longitude,latitude[,altitude] on WGS 84. Parsed by xmlRead.ts, which
 * never reads a DTD or expands an entity it declares.
 */
import type { LatLon, PolygonRings } from '../../../src-shared/geo';
import {
  BoundaryProblem,
  LIMITS,
  type Attribute,
  type BoundaryFeature,
  type BoundaryFile,
} from './boundaryFile';
import { child, descendants, parseXml, type XmlElement } from './xmlRead';

/**
 * Corners and elements read so far (from the whole file, or every KML a KMZ links); reading stops
 * past LIMITS.vertices or LIMITS.kmlElements (not after building them all).
 */
export type KmlBudget = { corners: number; elements: number };
type Budget = KmlBudget;

function coordinates(el: XmlElement | undefined, placemark: number, budget: Budget): LatLon[] {
  const text = el ? el.text.trim() : '';
  if (!text) return [];
  const ring: LatLon[] = [];
  const tuples = /\S+/g;
  for (let m = tuples.exec(text); m; m = tuples.exec(text)) {
    const tuple = m[0];
    if (++budget.corners > LIMITS.vertices)
      throw new BoundaryProblem(
        `The file's features have more than ${LIMITS.vertices.toLocaleString('en-US')} corners in all; at most that many are read. Simplify them first.`,
      );
    const [lon, lat] = tuple.split(',').map(Number);
    if (lon === undefined || lat === undefined || !Number.isFinite(lon) || !Number.isFinite(lat))
      throw new BoundaryProblem(
        `Placemark ${placemark} has coordinates "${tuple.slice(0, 40)}" that are not longitude,latitude.`,
      );
    ring.push([lat, lon]);
  }
  const a = ring[0];
  const b = ring[ring.length - 1];
  if (ring.length > 1 && a && b && a[0] === b[0] && a[1] === b[1]) ring.pop();
  return ring;
}

const ringIn = (boundary: XmlElement | undefined, placemark: number, budget: Budget): LatLon[] =>
  coordinates(boundary ? descendants(boundary, 'coordinates')[0] : undefined, placemark, budget);

export function readKml(text: string, budget: KmlBudget = { corners: 0, elements: 0 }): BoundaryFile {
  const doc = parseXml(text, budget);
  const placemarks = descendants(doc, 'Placemark');
  if (placemarks.length === 0 && !descendants(doc, 'kml').length)
    throw new BoundaryProblem('The file is XML but not KML (no <kml> element).');
  const fields: string[] = [];
  const seen = new Set<string>();
  const addField = (k: string) => {
    if (!seen.has(k)) {
      seen.add(k);
      fields.push(k);
    }
  };
  const features: BoundaryFeature[] = [];
  const skipped: BoundaryFile['skipped'] = [];
  placemarks.forEach((pm, i) => {
    const index = i + 1;
    const properties: Record<string, Attribute> = {};
    const name = child(pm, 'name');
    if (name) {
      properties.name = name.text.trim();
      addField('name');
    }
    const description = child(pm, 'description');
    if (description) {
      properties.description = description.text.trim();
      addField('description');
    }
    for (const d of descendants(pm, 'Data')) {
      const key = d.attrs.name;
      if (!key) continue;
      properties[key] = (child(d, 'value')?.text ?? '').trim();
      addField(key);
    }
    for (const d of descendants(pm, 'SimpleData')) {
      const key = d.attrs.name;
      if (!key) continue;
      properties[key] = d.text.trim();
      addField(key);
    }
    const polygons: PolygonRings[] = descendants(pm, 'Polygon').map((p) => [
      ringIn(child(p, 'outerBoundaryIs'), index, budget),
      ...p.children.filter((c) => c.name === 'innerBoundaryIs').map((b) => ringIn(b, index, budget)),
    ]);
    const points = descendants(pm, 'Point').flatMap((p) =>
      coordinates(child(p, 'coordinates'), index, budget),
    );
    if (polygons.length > 0) features.push({ index, properties, geometry: { kind: 'polygons', polygons } });
    else if (points.length > 0) features.push({ index, properties, geometry: { kind: 'points', points } });
    else
      skipped.push({
        index,
        reason: descendants(pm, 'LineString').length
          ? 'it is a line, not an area or a point'
          : 'it has no geometry',
      });
  });
  return { format: 'kml', features, fields, crs: 'EPSG:4326', skipped };
}
