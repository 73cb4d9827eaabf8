/**
 * Exports, the printable report and imports as the contract carries them (see contract.ts):
 * export jobs and their progress, the manifest written beside every export, the report model the
 * report page renders, and the preview and result of an import. Pure zod.
 */
import { z } from 'zod';
import { Filters, LatLon } from './filters';
import { GridResult, IncidentRow, SeriesResult, TopLocationsResult } from './incidentQueries';
import { ColumnMapping } from './importMapping';
import { PlanId } from './plans';
import { ReportAnalyses } from './reportAnalyses';
import { ReportBulletin } from './bulletin';
import { ReportPaper, ReportParams } from './reportRoute';

const Count = z.number().int().nonnegative();
const Day = z.string();
const Range = z.object({ from: Day.nullable(), to: Day.nullable() });

export const ExportFormat = z.enum(['csv', 'geojson', 'gpkg', 'shp', 'kml', 'pdf']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/**
 * The CSV and GeoJSON columns, in order (GeoJSON: the properties). `attributes` — the columns a
 * mapped import kept (engine/import) as one JSON object: CSV JSON text, GeoJSON an object, empty /
 * null for API rows; it stays last (storedFormat.ts reads every other column from `incidents`).
 */
export const EXPORT_COLUMN_NAMES = [
  'cdid',
  'type',
  'occurred_local',
  'timezone',
  'occurred_utc',
  'date_raw',
  'address',
  'lat',
  'lon',
  'link',
  'description',
  'first_seen',
  'last_seen',
  'removed',
  'subtype',
  'attributes',
] as const;

/**
 * An absolute file path chosen by the user in a host's own dialog. Only hosts set it: the
 * Electron shell replaces whatever the page sent with the save dialog's answer, and the web host
 * drops it (the web host writes into the data folder's exports/ and offers a download).
 */
const HostPath = z.string().min(1).max(4096);

export const StartExportInput = z
  .object({
    format: ExportFormat,
    filters: Filters.default({}),
    /** CSV only: start with a byte-order mark, which Excel needs to read UTF-8. */
    bom: z.boolean().optional(),
    /** CSV only: then every unplaced row (an import's rows without coordinates), lat and lon empty. */
    includeUnplaced: z.boolean().optional(),
    destination: z.object({ path: HostPath }).strict().optional(),
    /** PDF only: the report's as-of day and paper (src-shared/reportRoute.ts). */
    report: ReportParams.optional(),
  })
  .strict();
export type StartExportInput = z.input<typeof StartExportInput>;

export const StartExportOutput = z.object({
  jobId: z.string(),
  /** The file name the export will have. */
  fileName: z.string(),
  /** Incidents matching the filters when the job started (= countIncidents). */
  total: Count,
  /** PDF only, for the host that prints the report page; hosts remove it before the page sees it. */
  print: z.object({ token: z.string(), file: z.string(), paper: ReportPaper.optional() }).optional(),
});
export type StartExportOutput = z.infer<typeof StartExportOutput>;

export const ExportState = z.enum(['running', 'printing', 'done', 'failed', 'cancelled']);
export type ExportState = z.infer<typeof ExportState>;

/** Where each area's archive came from and how complete it is, for manifests and reports. */
export const Provenance = z.object({
  areas: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      lastSyncedAt: z.number().nullable(),
      backfilledAt: z.number().nullable(),
      /** Runs of days in the range the archive does not hold completely (missing). */
      gaps: z.array(z.object({ from: Day, to: Day })),
      missingDays: Count,
      provisionalDays: Count,
    }),
  ),
  /** ledger: the sync's coverage ledger; archive: no ledger (e.g. imported data), the span held. */
  coverageBasis: z.enum(['ledger', 'archive']),
  /** The days the coverage figures speak about (the filter's range, or the archive's span). */
  range: Range,
  plan: z.object({ id: PlanId, label: z.string(), windowDays: z.number().int() }),
  /** Plain sentences every reader of the figures should know. */
  notes: z.array(z.string()),
});
export type Provenance = z.infer<typeof Provenance>;

export const Manifest = z.object({
  kind: z.literal('blotter-export'),
  manifestVersion: z.literal(1),
  createdAt: z.string(),
  app: z.object({ name: z.literal('Blotter'), version: z.string() }),
  format: ExportFormat,
  file: z.object({
    name: z.string(),
    bytes: Count,
    bom: z.boolean().optional(),
    columns: z.array(z.string()).optional(),
    /** Columns written as JSON text (`attributes`: a mapped import's kept columns; GeoJSON has an object). */
    jsonText: z.array(z.string()).optional(),
    /** GIS formats: the coordinate reference system of every geometry. */
    crs: z.literal('EPSG:4326').optional(),
    /** GeoPackage: the tables it holds (features and attributes). */
    tables: z.array(z.string()).optional(),
    /**
     * Shapefile: the 10-character field names and the columns they hold; GeoPackage and KML: the
     * kept columns' names in the file. A kept column is `attributes.<its name>`.
     */
    fieldNames: z.record(z.string(), z.string()).optional(),
    /** Shapefile: text cells longer than a field holds (254 bytes), cut; per column, with some cdids. */
    truncated: z.array(z.object({ column: z.string(), cells: Count, cdids: z.array(z.number()) })).optional(),
    /** PDF: the analyses the report prints, each with its parameters (hot spots, CompStat). */
    analyses: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  }),
  filters: Filters,
  filterWords: z.array(z.string()),
  range: Range,
  counts: z.object({
    /** Incidents matching the filters. */
    total: Count,
    /** Rows (or features) in the file. */
    written: Count,
    byType: z.record(z.string(), Count),
  }),
  provenance: Provenance,
});
export type Manifest = z.infer<typeof Manifest>;

export const ExportFile = z.object({
  name: z.string(),
  /** Where it was written: the user's choice, or the data folder's exports/. */
  path: z.string(),
  bytes: Count,
  manifestName: z.string(),
});
export type ExportFile = z.infer<typeof ExportFile>;

/** The figures of an export progress event (the contract adds `type` and a typed `error`). */
export const ExportProgressFields = z.object({
  jobId: z.string(),
  format: ExportFormat,
  state: ExportState,
  done: Count,
  total: Count,
  file: ExportFile.optional(),
  manifest: Manifest.optional(),
});

export const JobInput = z.object({ jobId: z.string().min(1).max(64) }).strict();

export const FinishReportInput = z
  .object({
    jobId: z.string().min(1).max(64),
    token: z.string().min(1).max(128),
    /** The host could not print: why, in plain words. */
    failed: z.string().max(2000).optional(),
  })
  .strict();

/** Everything the printable report page shows; built by the engine when a PDF export starts. */
export const ReportModel = z.object({
  jobId: z.string(),
  title: z.string(),
  /** The agency's name and the analyst's notes (settings `report`); empty when not set. */
  agency: z.string(),
  notes: z.string(),
  /** The incidents themselves, newest first, up to REPORT_INCIDENT_LIST_MAX; null when not asked for. */
  incidents: z.object({ rows: z.array(IncidentRow), total: Count }).nullable(),
  createdAt: z.number(),
  version: z.string(),
  filters: Filters,
  filterWords: z.array(z.string()),
  range: Range,
  total: Count,
  byType: z.array(z.object({ type: z.string(), count: Count })),
  series: SeriesResult,
  grid: GridResult,
  top: TopLocationsResult.shape.locations,
  map: z.object({
    /** Area outlines as [lat, lon] rings. */
    outlines: z.array(z.array(LatLon)),
    /** A sample of the incidents (all of them up to a limit): type indexes into series.types. */
    points: z.object({ lat: z.array(z.number()), lon: z.array(z.number()), type: z.array(z.number()) }),
    shown: Count,
  }),
  provenance: Provenance,
  /** The hot spot map and the CompStat table, when the report options ask for them. */
  analyses: ReportAnalyses,
  /** The weekly bulletin's headline, trend, zone, paper and map labels (src-shared/bulletin.ts). */
  bulletin: ReportBulletin,
});
export type ReportModel = z.infer<typeof ReportModel>;

// ---------------------------------------------------------------------------------------------
// Imports.

/** An upload the web host stored in the data folder (its id), or a file the Electron dialog chose. */
export const UploadId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not an upload id.');
export const ImportSource = z.union([
  z.object({ uploadId: UploadId, name: z.string().max(255).optional() }).strict(),
  z.object({ path: HostPath }).strict(),
]);
export type ImportSource = z.infer<typeof ImportSource>;

export const ImportFormat = z.enum(['blotter-csv', 'api-csv', 'geojson', 'json', 'ndjson']);
export type ImportFormat = z.infer<typeof ImportFormat>;

export const ImportRowError = z.object({
  /** 1-based record number in the file (CSV: data rows after the header). */
  row: z.number().int(),
  field: z.string().nullable(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportSampleRow = z.object({
  cdid: z.number(),
  type: z.string(),
  /** The file's own category (a mapped file's type column before the value map), when it has one. */
  subtype: z.string().nullable().optional(),
  occurredLocal: z.string(),
  timezone: z.string(),
  address: z.string(),
  lat: z.number(),
  lon: z.number(),
});

export const PreviewImportInput = z
  .object({
    source: ImportSource.optional(),
    /** Another system's columns, read through this mapping (src-shared/importMapping.ts). */
    mapping: ColumnMapping.optional(),
  })
  .strict();

export const ImportPreview = z.object({
  importId: z.string(),
  fileName: z.string(),
  format: ImportFormat,
  /** The column mapping the file was read through (given, or saved for its header shape). */
  mapping: z.string().optional(),
  bytes: Count,
  /** Records read (valid or not). */
  rows: Count,
  valid: Count,
  /** Valid rows whose cdid appeared earlier in the same file (kept only when seen later: `repeats`, README). */
  duplicatesInFile: Count,
  /** Distinct valid cdids the archive already holds. */
  existing: Count,
  /**
   * What the run would do to those `existing` rows (each counted once, in the first group that
   * fits). An API row is never overwritten by an import (DESIGN.md, "Incident identity"); it may
   * only gain a description it lacks.
   */
  held: z.object({
    /** Imported rows the file saw later (its last_seen): replaced by the file's copy. */
    replace: Count,
    /** Rows that only gain the description they lack. */
    describe: Count,
    /** API rows whose copy in the file differs: kept as the API has them. */
    keptApi: Count,
    /** Imported rows whose copy in the file differs but was not seen later: kept as held. */
    keptHeld: Count,
    /** Rows the file's copy agrees with: nothing changes. */
    unchanged: Count,
  }),
  errorCount: Count,
  /** The first problems, one per bad row (at most 500). */
  errors: z.array(ImportRowError),
  /** The bad rows by the field (a mapped file: its column) that failed, most first, with its first message. */
  failures: z.array(z.object({ field: z.string().nullable(), rows: Count, message: z.string() })),
  /** No row can be imported: which fields failed on how many rows, in one sentence (the run then refuses). */
  unusable: z.string().optional(),
  /**
   * Ids given to more than one valid row (`duplicatesInFile` counts the rows after the first):
   * how many ids, how many rows differ from the copy the run keeps (their data would not be
   * imported), and the first 100 ids — differing ones first — with their rows and the row kept.
   */
  repeats: z.object({
    ids: Count,
    differing: Count,
    listed: z.array(
      z.object({
        /** The id as the file writes it (a Blotter or API file: the cdid). */
        id: z.string(),
        /** The rows holding it (the first 20), and how many there are. */
        rows: z.array(z.number().int()),
        count: Count,
        /** The row whose copy the run keeps (the others add at most a description it lacks). */
        kept: z.number().int(),
        /** Every copy is the same as Blotter reads it: one record, imported once. */
        same: z.boolean(),
      }),
    ),
  }),
  sample: z.array(ImportSampleRow),
  /**
   * Rows with an address but no coordinates (a mapped file): imported as unplaced, outside the
   * incidents, until the offline locator places them (issue 28). Their time is read in `zone`.
   */
  unplaced: z
    .object({
      rows: Count,
      zone: z.string(),
      zoneFrom: z.enum(['mapping', 'file', 'area', 'none']),
      listed: z.array(z.object({ row: z.number().int(), address: z.string(), reason: z.string() })),
    })
    .optional(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const RunImportInput = z
  .object({
    importId: z.string().min(1).max(64),
    /** skip: import the valid rows; abort: import nothing when any row is bad. */
    onBadRows: z.enum(['skip', 'abort']).default('skip'),
    /** Then try the offline locator on the unplaced rows (CLI `import --place`). */
    place: z.boolean().optional(),
  })
  .strict();

export const ImportResult = z.object({
  inserted: Count,
  updated: Count,
  unchanged: Count,
  skipped: Count,
  ms: z.number(),
  /** Rows kept as unplaced (no coordinates), and of those how many the locator placed (`place`). */
  unplaced: Count.optional(),
  placed: Count.optional(),
});
export type ImportResult = z.infer<typeof ImportResult>;

export const ImportProgressFields = z.object({
  phase: z.enum(['reading', 'writing']),
  done: Count,
  total: Count,
});
