/**
 * GeoJSON: one FeatureCollection, a Point feature per incident ([lon, lat], as GeoJSON orders them)
 * with the export columns as properties. The job writes the collection around the features
 * (batchFormat.ts, storedFormat.ts), a batch at a time: never one big object. `attributes` (a
 * mapped import's kept columns) is an object in the properties, null for API rows: the stored JSON
 * text is written as it is (the import wrote it, or checked it is an object of texts).
 */
import type { ExportRow } from './rows';

export function feature(row: ExportRow): string {
  const { lat, lon, attributes, ...props } = row;
  const text = JSON.stringify({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat] },
    properties: { ...props, lat, lon },
  });
  // The text ends with the properties' and the feature's closing braces.
  return `${text.slice(0, -2)},"attributes":${attributes ?? 'null'}}}`;
}
