/** The Export view's words: formats, sizes, progress and import outcomes. */
import type { EngineEvent } from '../../src-shared/contract';
import type { ExportFormat, ImportFormat, ImportResult } from '../../src-shared/exports';
import { count } from '../text/count';

export type ExportEvent = Extract<EngineEvent, { type: 'exportProgress' }>;

export const FORMATS: { value: ExportFormat; label: string; hint: string }[] = [
  { value: 'csv', label: 'CSV', hint: 'One row per incident, for spreadsheets and databases.' },
  { value: 'geojson', label: 'GeoJSON', hint: 'One point per incident, for GIS tools.' },
  {
    value: 'gpkg',
    label: 'GeoPackage',
    hint: 'Points with every column, the areas and the manifest in one file (QGIS, ArcGIS).',
  },
  {
    value: 'shp',
    label: 'Shapefile (zip)',
    hint: 'Points for older GIS tools; field names cut to 10 characters (listed in the manifest).',
  },
  { value: 'kml', label: 'KML', hint: 'Points styled by type, for Google Earth.' },
  {
    value: 'pdf',
    label: 'PDF report',
    hint: 'Map, counts, trend, hours and top locations, with where the data came from.',
  },
];

export const IMPORT_FORMATS: Record<ImportFormat, string> = {
  'blotter-csv': 'Blotter CSV export',
  'api-csv': 'CSV with the API’s fields',
  geojson: 'GeoJSON',
  json: 'JSON (incidents shaped like the API’s)',
  ndjson: 'NDJSON (one incident per line)',
};

export function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** What a running export is doing, in words. */
export function progressText(e: ExportEvent): string {
  switch (e.state) {
    case 'printing':
      return 'Drawing and printing the report…';
    case 'running':
      return `Writing ${count(e.done)} of ${count(e.total)} incidents…`;
    case 'done':
      return `Done: ${count(e.done)} incidents written.`;
    case 'cancelled':
      return 'Export cancelled; no file was left behind.';
    case 'failed':
      return e.error?.message ?? 'The export failed.';
  }
}

export function importOutcome(r: ImportResult): string {
  const parts = [
    `${count(r.inserted)} new`,
    `${count(r.updated)} updated`,
    `${count(r.unchanged)} already held`,
  ];
  if (r.skipped > 0) parts.push(`${count(r.skipped)} bad rows skipped`);
  if (r.unplaced) parts.push(`${count(r.unplaced)} without coordinates kept as unplaced`);
  return `Imported: ${parts.join(', ')} (${(r.ms / 1000).toFixed(1)} s).`;
}
