/**
 * Boundaries: reference layers (beats, districts, schools, parks) read from GeoJSON, a zipped
 * Shapefile or KML, kept in the local file and drawn on the map with their names; areas made from
 * their features; incidents counted within a distance of each feature. The contract calls' inputs
 * and outputs (zod), used by contract.ts, the engine's handlers (handlers/layers.ts), the CLI and
 * the renderer (src-renderer/layers). Filtering by a feature is the filter state's `feature`
 * (filters.ts). Pure TypeScript.
 */
import { z } from 'zod';
import { Filters, LatLon } from './filters';
import { featureOfLayer, unpackGeometry } from './geo';
import { ImportSource } from './exports';
import { AreaView } from './sync';

const Id = z.number().int().positive();
export const LayerName = z
  .string()
  .trim()
  .min(1, 'Give the layer a name.')
  .max(100)
  // One line of printable text: no control characters, line breaks or bidi overrides (it is shown
  // in the Layers panel, the map's filter chip, the CLI's lines and the report).
  .refine(
    (s) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(s),
    'A layer name is one line of printable text (no control characters or line breaks).',
  );
const PreviewId = z.string().min(1).max(64);
const Attribute = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const Kind = z.enum(['polygons', 'points']);

export const FeatureGeometryView = z.union([
  z.object({ kind: z.literal('polygons'), polygons: z.array(z.array(z.array(LatLon))) }),
  z.object({ kind: z.literal('points'), points: z.array(LatLon) }),
]);

export const BoundaryPreview = z.object({
  previewId: z.string(),
  fileName: z.string(),
  format: z.enum(['geojson', 'shapefile', 'kml']),
  /** How the coordinates were read ("EPSG:4326", or the .prj's system reprojected). */
  crs: z.string(),
  featureCount: z.number().int(),
  kinds: z.array(Kind),
  fields: z.array(z.string()),
  /** The attribute proposed to name the features. */
  nameField: z.string().nullable(),
  /** The first features' attributes (at most 200), for the name picker. */
  features: z.array(
    z.object({ index: z.number().int(), kind: Kind, properties: z.record(z.string(), Attribute) }),
  ),
  /** Features the file had that are not areas or points (lines, empty), left out. */
  skipped: z.array(z.object({ index: z.number().int(), reason: z.string() })),
  box: z.object({ minLat: z.number(), maxLat: z.number(), minLon: z.number(), maxLon: z.number() }),
});
export type BoundaryPreview = z.infer<typeof BoundaryPreview>;

export const LayerView = z.object({
  id: z.number().int(),
  name: z.string(),
  nameField: z.string().nullable(),
  sourceName: z.string(),
  format: z.enum(['geojson', 'shapefile', 'kml']),
  crs: z.string(),
  featureCount: z.number().int(),
  kinds: z.array(Kind),
  createdAt: z.number(),
});
export type LayerView = z.infer<typeof LayerView>;

export const LayerFeatureView = z.object({
  id: z.number().int(),
  name: z.string(),
  geometry: FeatureGeometryView,
});
export type LayerFeatureView = z.infer<typeof LayerFeatureView>;

/** A layer's geometry in four typed arrays (src-shared/geo/packed.ts PackedLayerGeometry). */
export const PackedLayerGeometry = z.object({
  coords: z.instanceof(Float64Array),
  parts: z.instanceof(Int32Array),
  cornerStarts: z.instanceof(Int32Array),
  partStarts: z.instanceof(Int32Array),
});

export const LayerFeaturesResult = z.object({
  layer: LayerView,
  /** In file order; feature k's geometry is the k-th of `geometry` (`featureViewsOf` unpacks them). */
  features: z.array(z.object({ id: z.number().int(), name: z.string(), kind: Kind })),
  geometry: PackedLayerGeometry,
});
export type LayerFeaturesResult = z.infer<typeof LayerFeaturesResult>;

/** Each feature of a getLayerFeatures answer with its geometry as nested [lat, lon] arrays. */
export const featureViewsOf = (
  answer: Pick<LayerFeaturesResult, 'features' | 'geometry'>,
): LayerFeatureView[] =>
  answer.features.map((f, k) => ({
    id: f.id,
    name: f.name,
    geometry: unpackGeometry(featureOfLayer(answer.geometry, k, f.kind)) as LayerFeatureView['geometry'],
  }));

export const BufferCountInput = z
  .object({
    filters: Filters.default({}),
    layerId: Id,
    /** The distance around each feature in metres (0: inside polygons only). */
    bufferM: z.number().min(0).max(50_000),
  })
  .strict();

export const BufferCountResult = z.object({
  layerId: z.number().int(),
  bufferM: z.number(),
  /** Per feature, in file order: the filtered incidents within the distance. */
  features: z.array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int() })),
  /** Distinct incidents within the distance of any feature (one near two schools counts once). */
  total: z.number().int(),
  /** The filtered incidents the counts were taken from. */
  filtered: z.number().int(),
});
export type BufferCountResult = z.infer<typeof BufferCountResult>;

export const layerCalls = {
  /** Reads a boundary file (source chosen by the host, like previewImport's) and holds it for importLayer/areasFromBoundaries. */
  previewBoundaries: {
    input: z.object({ source: ImportSource.optional() }).strict(),
    output: BoundaryPreview,
    answeredBy: 'host-then-engine',
  },
  /**
   * Stops the boundary file being read (previewBoundaries then answers `cancelled`, nothing held).
   * False when none is being read.
   */
  cancelBoundaryPreview: { input: z.object({}).strict(), output: z.object({ cancelled: z.boolean() }) },
  /** Keeps a previewed file as a reference layer, its features named by `nameField`. */
  importLayer: {
    input: z
      .object({ previewId: PreviewId, name: LayerName, nameField: z.string().max(200).nullable() })
      .strict(),
    output: LayerView,
  },
  /**
   * Saves a previewed file's polygon features as areas to sync (every one, or those given by
   * position or by name): one area per polygon part (its outer ring), named by `nameField`; rings over the
   * area limit of corners are simplified (the answer says by how much).
   */
  areasFromBoundaries: {
    input: z
      .object({
        previewId: PreviewId,
        nameField: z.string().max(200).nullable(),
        indexes: z.array(z.number().int().positive()).max(5000).optional(),
        /** Or the features whose name (by `nameField`) is one of these, case-insensitive. */
        names: z.array(z.string().min(1).max(200)).max(5000).optional(),
      })
      .strict(),
    output: z.object({ areas: z.array(AreaView), notes: z.array(z.string()) }),
  },
  discardBoundaries: {
    input: z.object({ previewId: PreviewId }).strict(),
    output: z.object({ discarded: z.boolean() }),
  },
  listLayers: { input: z.object({}).strict(), output: z.object({ layers: z.array(LayerView) }) },
  /**
   * A layer's features with their names and lat/lon geometry, for the map: the geometry packed in
   * typed arrays (2M corners as nested arrays held the engine thread ~1 s to send).
   */
  getLayerFeatures: {
    input: z.object({ layerId: Id }).strict(),
    output: LayerFeaturesResult,
  },
  renameLayer: { input: z.object({ layerId: Id, name: LayerName }).strict(), output: LayerView },
  deleteLayer: { input: z.object({ layerId: Id }).strict(), output: z.object({ deleted: z.boolean() }) },
  /** The filtered incidents within `bufferM` of each feature of a layer, and in all (distinct). */
  countNearLayer: { input: BufferCountInput, output: BufferCountResult },
} as const;
