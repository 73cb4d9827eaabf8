/**
 * Reference layers (engine/boundaries/): beats, districts, schools, parks imported from GeoJSON,
 * zipped Shapefile or KML and drawn on the map with their names; a filter may keep the incidents
 * inside one feature, or within a distance of it. A feature keeps its attributes (JSON) and its
 * geometry in EPSG:4326 (JSON, src-shared/geo FeatureGeometry) with its box. Ids are never reused
 * (AUTOINCREMENT): a filter names a feature by id, and the query caches results by that name.
 */
export const name = 'reference-layers';

export const sql = /* sql */ `
CREATE TABLE reference_layers (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  name          TEXT    NOT NULL,
  name_field    TEXT,                               -- the attribute that names its features
  source_name   TEXT    NOT NULL,                   -- the file it was read from (its name only)
  source_format TEXT    NOT NULL CHECK (source_format IN ('geojson', 'shapefile', 'kml')),
  crs           TEXT    NOT NULL,                   -- how its coordinates were read
  fields        TEXT    NOT NULL DEFAULT '[]',      -- JSON: the attribute names, in file order
  created_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE reference_features (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  layer_id    INTEGER NOT NULL REFERENCES reference_layers (id) ON DELETE CASCADE,
  ordinal     INTEGER NOT NULL,                     -- 1-based position in the file
  name        TEXT    NOT NULL,
  kind        TEXT    NOT NULL CHECK (kind IN ('polygons', 'points')),
  properties  TEXT    NOT NULL,                     -- JSON object
  geometry    TEXT    NOT NULL,                     -- JSON FeatureGeometry, lat/lon
  min_lat     REAL    NOT NULL,
  min_lon     REAL    NOT NULL,
  max_lat     REAL    NOT NULL,
  max_lon     REAL    NOT NULL
) STRICT;
CREATE INDEX reference_features_by_layer ON reference_features (layer_id, ordinal);
`;
