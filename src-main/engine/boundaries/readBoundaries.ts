/**
 * One boundary file, whatever its format: chosen by its name (.geojson/.json, .zip, .kml, .kmz) or its
 * first bytes, read by the format's reader, then checked as a whole — the limits on features and
 * corners, and each feature's geometry (named by its position and name, with the reason). A file
 * with any invalid feature is refused: nothing is half-imported.
 */
import { readFileSync, statSync } from 'node:fs';
import { geometryProblems, vertexCount, type FeatureGeometry, type LatLon } from '../../../src-shared/geo';
import {
  BoundaryProblem,
  checkLimits,
  featureName,
  LIMITS,
  proposeNameField,
  type BoundaryFile,
  type BoundaryFormat,
} from './boundaryFile';
import { readGeoJson } from './geojsonRead';
import { readKml } from './kmlRead';
import { kmzEntry, readKmz } from './kmzRead';
import { readShapefile } from './shapefileRead';
import { readZip } from './zipRead';

export function formatOf(name: string, head: Buffer): BoundaryFormat {
  const lower = name.toLowerCase();
  // A zip: a Shapefile's, or a KMZ (read as the KML it holds, readZipped).
  if (lower.endsWith('.zip') || lower.endsWith('.kmz') || (head[0] === 0x50 && head[1] === 0x4b))
    return 'shapefile';
  if (lower.endsWith('.kml')) return 'kml';
  if (lower.endsWith('.geojson') || lower.endsWith('.json')) return 'geojson';
  const start = head
    .toString('utf8', 0, Math.min(head.length, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (start.startsWith('<')) return 'kml';
  if (start.startsWith('{')) return 'geojson';
  throw new BoundaryProblem(
    'Blotter reads boundaries from GeoJSON (.geojson), a zipped Shapefile (.zip with .shp, .dbf and .prj) or KML (.kml or .kmz).',
  );
}

/** Characters of an attribute's name (a name picker's entry, sent with every preview). */
const MAX_FIELD_NAME = 1_000;

/** The features of a boundary file's bytes, checked; throws a BoundaryProblem saying what is wrong. */
export function readBoundaryBytes(name: string, bytes: Buffer): BoundaryFile {
  if (bytes.length === 0) throw new BoundaryProblem('The file is empty.');
  const format = formatOf(name, bytes.subarray(0, 512));
  const text = () => bytes.toString('utf8').replace(/^\uFEFF/, '');
  const file =
    format === 'shapefile' ? readZipped(bytes) : format === 'kml' ? readKml(text()) : readGeoJson(text());
  if (file.features.length === 0)
    throw new BoundaryProblem(
      file.skipped.length > 0
        ? `The file has no polygons or points: ${file.skipped.length} feature(s) left out (${file.skipped[0]?.reason}).`
        : 'The file has no features.',
    );
  checkLimits(file.features, (f) => vertexCount(f.geometry));
  for (const f of file.features) f.geometry = withoutRepeatedCorners(f.geometry);
  if (file.fields.length > LIMITS.fields)
    throw new BoundaryProblem(
      `The file's features have ${file.fields.length.toLocaleString('en-US')} different attributes; at most ${LIMITS.fields.toLocaleString('en-US')} are read. Keep only the attributes you need.`,
    );
  const longName = file.fields.find((f) => f.length > MAX_FIELD_NAME);
  if (longName !== undefined)
    throw new BoundaryProblem(
      `An attribute's name is ${longName.length.toLocaleString('en-US')} characters long ("${longName.slice(0, 40)}…"); names of at most ${MAX_FIELD_NAME.toLocaleString('en-US')} are read.`,
    );
  const nameField = proposeNameField(file);
  const bad: string[] = [];
  for (const f of file.features) {
    const problems = geometryProblems(f.geometry);
    if (problems.length > 0)
      bad.push(`feature ${f.index} "${featureName(f, nameField)}": ${problems.join('; ')}`);
  }
  if (bad.length > 0) {
    const more = bad.length > 5 ? ` (and ${bad.length - 5} more)` : '';
    throw new BoundaryProblem(
      `Some features have invalid geometry, so nothing was read: ${bad.slice(0, 5).join('. ')}${more}.`,
    );
  }
  return file;
}

/**
 * A corner repeated at once (digitising and export leave them in real boundary files) is one corner:
 * left in, its zero-length edge reads as the ring crossing itself and the whole file is refused.
 */
function withoutRepeatedCorners(g: FeatureGeometry): FeatureGeometry {
  if (g.kind !== 'polygons') return g;
  const ring = (r: readonly LatLon[]): readonly LatLon[] => {
    let repeats = false;
    for (let k = 1; k < r.length && !repeats; k++) repeats = same(r[k] as LatLon, r[k - 1] as LatLon);
    return repeats ? r.filter((c, k) => k === 0 || !same(c, r[k - 1] as LatLon)) : r;
  };
  return { kind: 'polygons', polygons: g.polygons.map((rings) => rings.map(ring)) };
}

const same = (a: LatLon, b: LatLon) => a[0] === b[0] && a[1] === b[1];

/** A zip: a KMZ (a KML and no .shp) or a zipped Shapefile. */
function readZipped(bytes: Buffer): BoundaryFile {
  const zip = readZip(bytes);
  const kml = kmzEntry(zip);
  return kml ? readKmz(zip, kml) : readShapefile(zip);
}

export function readBoundaryFile(file: string, name: string): BoundaryFile {
  const size = statSync(file).size;
  if (size > LIMITS.fileBytes)
    throw new BoundaryProblem(
      `The file is ${Math.round(size / 1024 / 1024)} MB; boundary files of at most ${LIMITS.fileBytes / 1024 / 1024} MB are read.`,
    );
  return readBoundaryBytes(name, readFileSync(file));
}
