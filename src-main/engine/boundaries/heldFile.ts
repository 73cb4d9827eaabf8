/**
 * A read boundary file as the engine thread holds it between the preview and its use: each
 * feature's geometry already as the JSON text the layer store writes (so keeping a layer of 2M
 * corners is an insert, not a stringify on the engine thread), its box and kind beside it, the
 * attributes as read. Made on the reading thread (boundaryWorker.ts); crossing to the engine
 * thread costs a copy of each text, not one object per corner.
 */
import { geometryBox, unionBox, type Box, type FeatureGeometry } from '../../../src-shared/geo';
import { proposeNameField, type Attribute, type BoundaryFeature, type BoundaryFile } from './boundaryFile';

export type HeldFeature = {
  index: number;
  kind: FeatureGeometry['kind'];
  properties: Record<string, Attribute>;
  /** `JSON.stringify(geometry)`, as reference_features.geometry stores it. */
  geometry: string;
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
  geometry: JSON.stringify(f.geometry),
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

/** A held feature with its geometry parsed again (the areas' thread). */
export const parsedFeature = (
  f: Pick<HeldFeature, 'index' | 'properties' | 'geometry'>,
): BoundaryFeature => ({
  index: f.index,
  properties: f.properties,
  geometry: JSON.parse(f.geometry) as FeatureGeometry,
});
