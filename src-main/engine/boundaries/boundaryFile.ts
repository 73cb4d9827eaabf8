/**
 * What every boundary reader (GeoJSON, zipped Shapefile, KML) hands on: features with their
 * attributes and a lat/lon geometry (EPSG:4326), and the limits a file must keep. A reader throws a
 * `BoundaryProblem` naming what is wrong with the file as a whole, or the feature and why.
 */
import type { FeatureGeometry } from '../../../src-shared/geo';

export type Attribute = string | number | boolean | null;

export type BoundaryFeature = {
  /** 1-based position in the file. */
  index: number;
  properties: Record<string, Attribute>;
  geometry: FeatureGeometry;
};

export type BoundaryFormat = 'geojson' | 'shapefile' | 'kml';

export type BoundaryFile = {
  format: BoundaryFormat;
  features: BoundaryFeature[];
  /** Attribute names in the order the file gives them. */
  fields: string[];
  /** How the coordinates were read: "EPSG:4326", or the .prj's system reprojected to it. */
  crs: string;
  /** Features the file had with no geometry or only lines, left out (1-based positions). */
  skipped: { index: number; reason: string }[];
};

export const LIMITS = {
  /** Bytes of a boundary file (or zip) read at all. */
  fileBytes: 200 * 1024 * 1024,
  features: 20_000,
  /** Corners of all features together. */
  vertices: 2_000_000,
  /** Corners of one feature. */
  featureVertices: 250_000,
  /** Distinct attribute names in one file (a name picker, and each name looked up in each feature). */
  fields: 1_000,
  /**
   * Elements of a KML (of all the KML files a KMZ links, together). Each costs some 300 bytes
   * parsed, so 200 MB of `<Placemark/>` would take over 4 GB: 1,000,000 is 20,000 placemarks of
   * 50 elements each.
   */
  kmlElements: 1_000_000,
  /** Entries of a zip. */
  zipEntries: 1_000,
  /** Bytes all entries of a zip inflate to. */
  zipBytes: 1024 * 1024 * 1024,
} as const;

export class BoundaryProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BoundaryProblem';
  }
}

/** Checks the counts a file holds against LIMITS; throws a BoundaryProblem saying which and how many. */
export function checkLimits(
  features: readonly BoundaryFeature[],
  vertices: (f: BoundaryFeature) => number,
): void {
  if (features.length > LIMITS.features)
    throw new BoundaryProblem(
      `The file holds ${features.length.toLocaleString('en-US')} features; Blotter reads at most ${LIMITS.features.toLocaleString('en-US')} in one layer. Split it, or keep only the features you need.`,
    );
  let total = 0;
  for (const f of features) {
    const n = vertices(f);
    if (n > LIMITS.featureVertices)
      throw new BoundaryProblem(
        `Feature ${f.index} has ${n.toLocaleString('en-US')} corners; at most ${LIMITS.featureVertices.toLocaleString('en-US')} are read for one feature. Simplify it (QGIS: Vector › Geometry Tools › Simplify).`,
      );
    total += n;
  }
  if (total > LIMITS.vertices)
    throw new BoundaryProblem(
      `The file's features have ${total.toLocaleString('en-US')} corners in all; at most ${LIMITS.vertices.toLocaleString('en-US')} are read. Simplify them first.`,
    );
}

/** The attribute that names the features: a text field called like a name, else the first text field. */
export function proposeNameField(file: Pick<BoundaryFile, 'features' | 'fields'>): string | null {
  const texts = file.fields.filter((f) => file.features.some((x) => typeof x.properties[f] === 'string'));
  const preferred = ['name', 'label', 'title', 'beat', 'district', 'school', 'park', 'zone', 'area', 'id'];
  for (const want of preferred) {
    const hit =
      texts.find((f) => f.toLowerCase() === want) ?? texts.find((f) => f.toLowerCase().includes(want));
    if (hit) return hit;
  }
  return texts[0] ?? file.fields[0] ?? null;
}

/** C0/C1 controls, line and paragraph separators, bidi embeddings, overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/**
 * A feature's name by the chosen attribute (an own attribute only: "constructor" is not a name
 * every feature has); "Feature N" when it has none. One line of at most 200 characters: the file's
 * control characters, line breaks and bidi overrides become spaces, so the name reads the same on
 * the map's labels, the filter chip, the CLI and the report.
 */
export function featureName(f: Pick<BoundaryFeature, 'index' | 'properties'>, field: string | null): string {
  const v = field && Object.hasOwn(f.properties, field) ? f.properties[field] : null;
  const text = v === null || v === undefined ? '' : String(v).replace(UNPRINTABLE, ' ').trim();
  return (text || `Feature ${f.index}`).slice(0, 200);
}
