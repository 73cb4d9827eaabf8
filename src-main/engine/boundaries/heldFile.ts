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
  packGeometry,
  unionBox,
  unpackGeometry,
  type Box,
  type FeatureGeometry,
  type PackedGeometry,
} from '../../../src-shared/geo';
import { proposeNameField, type Attribute, type BoundaryFeature, type BoundaryFile } from './boundaryFile';

export { packGeometry, unpackGeometry, type PackedGeometry } from '../../../src-shared/geo';

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
