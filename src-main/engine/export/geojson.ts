/**
 * GeoJSON: one FeatureCollection, a Point feature per incident ([lon, lat], as GeoJSON orders them)
 * with the export columns as properties. The job writes the collection around the features
 * (batchFormat.ts, storedFormat.ts), a batch at a time: never one big object.
 */
import type { ExportRow } from './rows';

export function feature(row: ExportRow): string {
  const { lat, lon, ...props } = row;
  return JSON.stringify({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat] },
    properties: { ...props, lat, lon },
  });
}
