/**
 * GeoJSON: one FeatureCollection, a Point feature per incident ([lon, lat], as GeoJSON orders them)
 * with the export columns as properties. Written as a stream of chunks: never one big object.
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

export function* geojsonChunks(rows: Iterable<ExportRow>): Generator<string> {
  let buf = '{"type":"FeatureCollection","features":[';
  let n = 0;
  for (const row of rows) {
    buf += (n > 0 ? ',\n' : '\n') + feature(row);
    if (++n % 500 === 0) {
      yield buf;
      buf = '';
    }
  }
  yield buf + '\n]}\n';
}
