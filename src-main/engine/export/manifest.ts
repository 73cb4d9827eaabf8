/**
 * The manifest written beside every export (`<name>.manifest.json`): what was asked (the filters,
 * also in words), what was written (counts by type, rows, bytes), where the data came from
 * (provenance: areas, last syncs, coverage gaps, plan window) and which Blotter wrote it — enough
 * to reproduce or audit a report. It never holds the API key or anything derived from it.
 */
import { Manifest, type ExportFormat, type Provenance } from '../../../src-shared/exports';
import type { DayRange, Filters } from '../../../src-shared/filters';
import { EXPORT_COLUMNS } from './rows';

export type ManifestInput = {
  version: string;
  createdAt: number;
  format: ExportFormat;
  fileName: string;
  bytes: number;
  bom?: boolean;
  filters: Filters;
  filterWords: string[];
  range: DayRange;
  total: number;
  written: number;
  byType: Record<string, number>;
  provenance: Provenance;
  fileInfo?: FileInfo;
};

/** What a writer adds to the manifest's `file` (GIS: CRS, tables, field names, cut cells; PDF: analyses). */
export type FileInfo = Pick<Manifest['file'], 'crs' | 'tables' | 'fieldNames' | 'truncated' | 'analyses'>;

export function buildManifest(m: ManifestInput): Manifest {
  const tabular = m.format !== 'pdf';
  return Manifest.parse({
    kind: 'blotter-export',
    manifestVersion: 1,
    createdAt: new Date(m.createdAt).toISOString(),
    app: { name: 'Blotter', version: m.version },
    format: m.format,
    file: {
      name: m.fileName,
      bytes: m.bytes,
      ...(m.format === 'csv' ? { bom: m.bom === true } : {}),
      ...(tabular ? { columns: [...EXPORT_COLUMNS] } : {}),
      // Every tabular format but GeoJSON (an object there) holds the kept columns as JSON text.
      ...(tabular && m.format !== 'geojson' ? { jsonText: ['attributes'] } : {}),
      ...m.fileInfo,
    },
    filters: m.filters,
    filterWords: m.filterWords,
    range: m.range,
    counts: {
      total: m.total,
      written: m.written,
      byType: Object.fromEntries(Object.entries(m.byType).filter(([, n]) => n > 0)),
    },
    provenance: m.provenance,
  });
}
