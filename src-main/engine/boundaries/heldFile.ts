/**
 * A read boundary file as the engine thread holds it between the preview and its use: each
 * feature's geometry packed in typed arrays (a copy of a few MB crossing from the reading thread,
 * not one object per corner; 2M corners are 32 MB), its box and kind beside it, the attributes as
 * read. Made on the reading thread (boundaryWorker.ts); unpacked only on a helper thread again
 * (the store's JSON when a layer is kept, the areas' shapes), so the preview costs no more CPU
 * than reading the file did.
 */
import {
  geometryBox,
  unionBox,
  type Box,
  type FeatureGeometry,
  type LatLon,
  type PolygonRings,
} from '../../../src-shared/geo';
import { proposeNameField, type Attribute, type BoundaryFeature, type BoundaryFile } from './boundaryFile';

/**
 * `coords`: lat, lon of every corner (or point) in order. `parts` (polygons): the number of
 * polygons, then for each its number of rings, then each ring's number of corners.
 */
export type PackedGeometry = { kind: FeatureGeometry['kind']; coords: Float64Array; parts: Int32Array };

export type HeldFeature = {
  index: number;
  kind: FeatureGeometry['kind'];
  properties: Record<string, Attribute>;
  geometry: PackedGeometry;
  box: Box;
};

export type HeldFile = Omit<BoundaryFile, 'features'> & {
  features: HeldFeature[];
  nameField: string | null;
  /** All features' box. */
  box: Box;
};

export function packGeometry(g: FeatureGeometry): PackedGeometry {
  const parts: number[] = [];
  let n = 0;
  if (g.kind === 'points') n = g.points.length;
  else {
    parts.push(g.polygons.length);
    for (const rings of g.polygons) {
      parts.push(rings.length);
      for (const ring of rings) {
        parts.push(ring.length);
        n += ring.length;
      }
    }
  }
  const coords = new Float64Array(n * 2);
  let at = 0;
  const put = (c: LatLon) => {
    coords[at++] = c[0];
    coords[at++] = c[1];
  };
  if (g.kind === 'points') g.points.forEach(put);
  else for (const rings of g.polygons) for (const ring of rings) ring.forEach(put);
  return { kind: g.kind, coords, parts: Int32Array.from(parts) };
}

export function unpackGeometry(p: PackedGeometry): FeatureGeometry {
  let at = 0;
  const corners = (count: number): LatLon[] => {
    const out: LatLon[] = new Array(count);
    for (let k = 0; k < count; k++, at += 2) out[k] = [p.coords[at] as number, p.coords[at + 1] as number];
    return out;
  };
  if (p.kind === 'points') return { kind: 'points', points: corners(p.coords.length / 2) };
  let part = 0;
  const next = () => p.parts[part++] as number;
  const polygons: PolygonRings[] = Array.from({ length: next() }, () =>
    Array.from({ length: next() }, () => corners(next())),
  );
  return { kind: 'polygons', polygons };
}

export const heldFeature = (f: BoundaryFeature): HeldFeature => ({
  index: f.index,
  kind: f.geometry.kind,
  properties: f.properties,
  geometry: packGeometry(f.geometry),
  box: geometryBox(f.geometry),
});

export function heldFileOf(file: BoundaryFile): HeldFile {
  const features = file.features.map(heldFeature);
  return {
    format: file.format,
    crs: file.crs,
    fields: file.fields,
    skipped: file.skipped,
    nameField: proposeNameField(file),
    box: features.map((f) => f.box).reduce((a, b) => unionBox(a, b)),
    features,
  };
}

/** A held feature with its geometry unpacked again (a helper thread). */
export const unpackedFeature = (
  f: Pick<HeldFeature, 'index' | 'properties' | 'geometry'>,
): BoundaryFeature => ({
  index: f.index,
  properties: f.properties,
  geometry: unpackGeometry(f.geometry),
});

/** Bytes of a feature's packed geometry (how the reading thread sizes its messages). */
export const packedBytes = (f: HeldFeature): number =>
  f.geometry.coords.byteLength + f.geometry.parts.byteLength;
