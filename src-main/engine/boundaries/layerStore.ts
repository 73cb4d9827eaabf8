/**
 * Reference layers in the local file (migration 010): a layer, its features with their names,
 * attributes and lat/lon geometry. Written in one transaction per layer; deleting a layer deletes
 * its features (foreign key, cascade).
 */
import { geometryBox, type Box, type FeatureGeometry } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { featureName, type Attribute, type BoundaryFeature, type BoundaryFile } from './boundaryFile';

export type LayerRecord = {
  id: number;
  name: string;
  nameField: string | null;
  sourceName: string;
  format: BoundaryFile['format'];
  crs: string;
  fields: string[];
  createdAt: number;
  featureCount: number;
  kinds: ('polygons' | 'points')[];
};

export type FeatureRecord = {
  id: number;
  layerId: number;
  ordinal: number;
  name: string;
  properties: Record<string, Attribute>;
  geometry: FeatureGeometry;
};

/** A feature as written: its geometry already the JSON text (a preview's is made on a helper thread). */
export type StoredFeature = {
  index: number;
  kind: FeatureGeometry['kind'];
  properties: Record<string, Attribute>;
  geometry: string;
  box: Box;
};

const storedFeature = (f: BoundaryFeature): StoredFeature => ({
  index: f.index,
  kind: f.geometry.kind,
  properties: f.properties,
  geometry: JSON.stringify(f.geometry),
  box: geometryBox(f.geometry),
});

type LayerRow = {
  id: number;
  name: string;
  name_field: string | null;
  source_name: string;
  source_format: BoundaryFile['format'];
  crs: string;
  fields: string;
  created_at: number;
  feature_count: number;
  kinds: string | null;
};

type FeatureRow = {
  id: number;
  layer_id: number;
  ordinal: number;
  name: string;
  properties: string;
  geometry: string;
};

const LAYER_SELECT = `SELECT l.*, (SELECT count(*) FROM reference_features f WHERE f.layer_id = l.id) AS feature_count,
  (SELECT group_concat(DISTINCT kind) FROM reference_features f WHERE f.layer_id = l.id) AS kinds
  FROM reference_layers l`;

const toLayer = (r: LayerRow): LayerRecord => ({
  id: r.id,
  name: r.name,
  nameField: r.name_field,
  sourceName: r.source_name,
  format: r.source_format,
  crs: r.crs,
  fields: JSON.parse(r.fields) as string[],
  createdAt: r.created_at,
  featureCount: r.feature_count,
  kinds: (r.kinds ? r.kinds.split(',') : []).sort() as LayerRecord['kinds'],
});

const toFeature = (r: FeatureRow): FeatureRecord => ({
  id: r.id,
  layerId: r.layer_id,
  ordinal: r.ordinal,
  name: r.name,
  properties: JSON.parse(r.properties) as Record<string, Attribute>,
  geometry: JSON.parse(r.geometry) as FeatureGeometry,
});

export function createLayerStore(db: Db) {
  const getLayer = (id: number): LayerRecord | undefined => {
    const r = db.prepare<[number], LayerRow>(`${LAYER_SELECT} WHERE l.id = ?`).get(id);
    return r ? toLayer(r) : undefined;
  };
  return {
    list: (): LayerRecord[] => db.prepare<[], LayerRow>(`${LAYER_SELECT} ORDER BY l.id`).all().map(toLayer),
    get: getLayer,
    byName(name: string): LayerRecord | undefined {
      const r = db
        .prepare<[string], LayerRow>(
          `${LAYER_SELECT} WHERE l.name = ? COLLATE NOCASE ORDER BY l.id DESC LIMIT 1`,
        )
        .get(name);
      return r ? toLayer(r) : undefined;
    },
    /**
     * Writes a read file as a layer, its features named by `nameField`, in one transaction. A
     * preview's features come stored (geometry already JSON, made on a helper thread), so the engine
     * thread only inserts.
     */
    create(
      file: Pick<BoundaryFile, 'format' | 'crs' | 'fields' | 'skipped'> & {
        features: readonly (BoundaryFeature | StoredFeature)[];
      },
      input: { name: string; nameField: string | null; sourceName: string },
      now: number,
    ): LayerRecord {
      return db
        .transaction(() => {
          const id = Number(
            db
              .prepare(
                `INSERT INTO reference_layers (name, name_field, source_name, source_format, crs, fields, created_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?)`,
              )
              .run(
                input.name,
                input.nameField,
                input.sourceName,
                file.format,
                file.crs,
                JSON.stringify(file.fields),
                now,
              ).lastInsertRowid,
          );
          const insert = db.prepare(
            `INSERT INTO reference_features (layer_id, ordinal, name, kind, properties, geometry, min_lat, min_lon, max_lat, max_lon)
             VALUES (@layer, @ordinal, @name, @kind, @properties, @geometry, @minLat, @minLon, @maxLat, @maxLon)`,
          );
          for (const one of file.features) {
            const f =
              typeof one.geometry === 'string'
                ? (one as StoredFeature)
                : storedFeature(one as BoundaryFeature);
            insert.run({
              layer: id,
              ordinal: f.index,
              name: featureName(f, input.nameField),
              kind: f.kind,
              properties: JSON.stringify(f.properties),
              geometry: f.geometry,
              ...f.box,
            });
          }
          return getLayer(id) as LayerRecord;
        })
        .immediate();
    },
    features(layerId: number): FeatureRecord[] {
      return db
        .prepare<[number], FeatureRow>(
          'SELECT * FROM reference_features WHERE layer_id = ? ORDER BY ordinal, id',
        )
        .all(layerId)
        .map(toFeature);
    },
    /** Each feature's id, name and kind, in file order, its geometry not read. */
    featureNames(layerId: number): { id: number; name: string; kind: FeatureGeometry['kind'] }[] {
      return db
        .prepare<[number], { id: number; name: string; kind: FeatureGeometry['kind'] }>(
          'SELECT id, name, kind FROM reference_features WHERE layer_id = ? ORDER BY ordinal, id',
        )
        .all(layerId);
    },
    /** The layer's stored geometry text in bytes (from the rows' headers: the text is not read). */
    geometryBytes(layerId: number): number {
      return (
        db
          .prepare<[number], { n: number | null }>(
            'SELECT sum(octet_length(geometry)) AS n FROM reference_features WHERE layer_id = ?',
          )
          .get(layerId)?.n ?? 0
      );
    },
    feature(id: number): FeatureRecord | undefined {
      const r = db.prepare<[number], FeatureRow>('SELECT * FROM reference_features WHERE id = ?').get(id);
      return r ? toFeature(r) : undefined;
    },
    rename(id: number, name: string): void {
      db.prepare('UPDATE reference_layers SET name = ? WHERE id = ?').run(name, id);
    },
    remove(id: number): boolean {
      return db.prepare('DELETE FROM reference_layers WHERE id = ?').run(id).changes > 0;
    },
  };
}

export type LayerStore = ReturnType<typeof createLayerStore>;
