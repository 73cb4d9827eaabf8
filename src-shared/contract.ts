/**
 * The one contract between the renderer and the engine.
 *
 * Every call the renderer may make is declared here as name → { input, output } (zod), and every
 * event the engine pushes is a member of `EngineEvent`. The preload, the Electron main process, the
 * web host and the renderer's bridges all loop over `contract`; no channel name is written anywhere
 * else. Add a call by adding an entry here (and its handler in src-main/engine/handlers).
 *
 * Who answers: the engine, unless the entry says `answeredBy`:
 * - `'host'`: the host answers the call itself (demo mode: the host runs the simulator and switches
 *   data folders); the engine has no handler and refuses it if it ever arrives.
 * - `'host-then-engine'`: the host takes its part first, deciding what the page may not (an export's
 *   destination and the printing of a PDF; an import's file, or an office join's CA certificate:
 *   the open dialog or an upload), then
 *   hands the call to the engine's handler.
 * The hosts route these by this declaration (src-main/engine/hostCalls.ts), never by name; the
 * types below make a missing engine handler, or a host missing its answer, a type error.
 *
 * An entry that says `confirmsSecret` lets a stored secret go to a new address: a host that can ask
 * the user (Electron's main process) asks first, naming the address (src-shared/secretDestination.ts).
 */
import { z } from 'zod';
import { alertCalls, AlertsChangedFields } from './alertCalls';
import { reportScheduleCalls, ReportsDueFields } from './reportSchedules';
import { officeCalls, OfficePullProgressFields } from './officeCalls';
import { layerCalls } from './layerCalls';
import { importMappingCalls } from './importMappingCalls';
import { placesCalls } from './placesCalls';
import { PlanId, SettingsPatch, SettingsView } from './settings';
import { apiKeyDestination, type SecretDestination } from './secretDestination';
import {
  BasemapCoverage,
  BasemapDownloadInput,
  BasemapEstimate,
  BasemapInfo,
  BasemapProgressFields,
  TileBytes,
  TileCoord,
} from './basemap';
import { KeyStatus } from './secrets';
import { ApiKeyText, DemoStatus, TestConnectionInput, TestConnectionResult } from './firstRun';
import {
  AreaName,
  AreaShape,
  AreaView,
  HistoryPlan,
  RefreshMinutes,
  SyncPlan,
  SyncProgressFields,
  SyncRunResult,
} from './sync';
import {
  ArchiveSummary,
  CompareInput,
  CompareResult,
  CountResult,
  CoverageInput,
  CoverageResult,
  FiltersInput,
  GridResult,
  IncidentDetail,
  ListInput,
  ListResult,
  MapPoints,
  MapSketch,
  MapSketchInput,
  SeriesInput,
  SeriesResult,
  TopLocationsInput,
  TopLocationsResult,
} from './incidentQueries';
import {
  ExportProgressFields,
  FinishReportInput,
  ImportPreview,
  ImportProgressFields,
  ImportResult,
  JobInput,
  PreviewImportInput,
  ReportModel,
  RunImportInput,
  StartExportInput,
  StartExportOutput,
} from './exports';
import {
  AnalysisJobId,
  AnalysisProgressFields,
  CompStatInput,
  CompStatOutput,
  HotSpotsInput,
  HotSpotsOutput,
  KdeInput,
  KdeOutput,
  NearRepeatInput,
  NearRepeatOutput,
  PlaybackPoints,
  RepeatLocationsInput,
  RepeatLocationsOutput,
} from './analysis';

const Empty = z.object({}).strict();

export const contract = {
  /** Which host and data folder this is; the version for the About box and manifests. */
  getAppInfo: {
    input: Empty,
    output: z.object({
      version: z.string(),
      host: z.enum(['electron', 'web', 'cli']),
      dataDir: z.string(),
    }),
  },
  getSettings: { input: Empty, output: SettingsView },
  updateSettings: { input: SettingsPatch, output: SettingsView },
  /** Whether a key is stored and whether the OS keychain can be reached. Never the key itself. */
  getKeyStatus: { input: Empty, output: KeyStatus },
  setApiKey: { input: z.object({ key: ApiKeyText }).strict(), output: KeyStatus },
  removeApiKey: { input: Empty, output: KeyStatus },

  // First run (handlers/connection.ts; demo calls are answered by the hosts, see src-main/demo).
  /** Saves the given settings and key (keychain only), then one cheap search: works, or what is wrong. */
  testConnection: { input: TestConnectionInput, output: TestConnectionResult },
  /**
   * Lets the stored key go to the base URL now set. Electron: the main process asks the user in a
   * dialog naming the host first (src-main/electron/secretDestinationDialog.ts). CLI: called when the user
   * typed the address (--base-url, settings set base-url). The web host is refused (it confirms by
   * re-entering the key).
   */
  confirmBaseUrl: {
    input: z.object({ baseUrl: z.string().max(2000) }).strict(),
    output: SettingsView,
    confirmsSecret: apiKeyDestination,
  },
  /** What the engine knows of the API's reachability: null until any request was made. */
  getConnectivity: {
    input: Empty,
    output: z.object({ online: z.boolean().nullable(), message: z.string().optional() }),
  },
  /** Whether this data folder is the synthetic demo, and whether this host can start one. */
  getDemoStatus: { input: Empty, output: DemoStatus, answeredBy: 'host' },
  /** Switches this window to the demo: simulator on loopback, its own data folder, a demo area syncing. */
  startDemo: { input: Empty, output: DemoStatus, answeredBy: 'host' },
  /** Deletes the demo data folder and its key, and switches back to the real data folder. */
  removeDemo: { input: Empty, output: DemoStatus, answeredBy: 'host' },

  // Areas and their syncs (handlers/areas.ts, handlers/sync.ts). Progress arrives as syncProgress events.
  listAreas: { input: Empty, output: z.object({ areas: z.array(AreaView) }) },
  createArea: {
    input: z.object({ name: AreaName, shape: AreaShape, refreshMinutes: RefreshMinutes.optional() }).strict(),
    output: AreaView,
  },
  renameArea: {
    input: z.object({ id: z.number().int().positive(), name: AreaName }).strict(),
    output: AreaView,
  },
  setAreaRefresh: {
    input: z.object({ id: z.number().int().positive(), refreshMinutes: RefreshMinutes }).strict(),
    output: AreaView,
  },
  setAreaPaused: {
    input: z.object({ id: z.number().int().positive(), paused: z.boolean() }).strict(),
    output: AreaView,
  },
  /**
   * Deletes the area with its coverage ledger, sync runs and jobs, and removes the incidents it
   * brought in that no remaining area covers: incidents from the API (source 'api') inside the
   * deleted area's shape or its tiles that lie neither inside a remaining area's shape nor its tiles.
   * Imported incidents (source 'import') are never removed by deleting an area; `keepIncidents: true`
   * keeps every incident. `incidentsRemoved` counts the incidents that left the local file.
   */
  deleteArea: {
    input: z.object({ id: z.number().int().positive(), keepIncidents: z.boolean().optional() }).strict(),
    output: z.object({ deleted: z.boolean(), incidentsRemoved: z.number().int() }),
  },
  /** What a sync would cost before it starts: requests and minutes at the plan's rate. */
  planSync: {
    input: z.object({ areaIds: z.array(z.number().int().positive()).max(1000).optional() }).strict(),
    output: SyncPlan,
  },
  /**
   * The opt-in 36-month history backfill (v1's /v1/history, Pro and Enterprise): whether it can run
   * now and its request count, shown before it is asked for (startSync/runSync with history).
   */
  planHistory: {
    input: z.object({ areaIds: z.array(z.number().int().positive()).max(1000).optional() }).strict(),
    output: HistoryPlan,
  },
  /** Starts syncing (all unpaused areas when areaIds is absent); returns at once. */
  startSync: {
    input: z
      .object({
        areaIds: z.array(z.number().int().positive()).max(1000).optional(),
        details: z.boolean().optional(),
        /** The history backfill instead of a sync (planHistory first says whether it can run). */
        history: z.boolean().optional(),
      })
      .strict(),
    output: z.object({ started: z.array(z.number().int()) }),
  },
  stopSync: {
    input: z.object({ areaIds: z.array(z.number().int().positive()).max(1000).optional() }).strict(),
    output: z.object({ stopped: z.array(z.number().int()) }),
  },
  /**
   * Syncs the areas once, one after another, and answers when all have finished: each run's
   * figures, and the requests and 429s of this engine. For a host that waits (the CLI); the app
   * uses startSync. Refreshes go deep (the last 14 days). Progress arrives as syncProgress events;
   * stopSync ends it early (the runs answer 'cancelled').
   */
  runSync: {
    input: z
      .object({
        areaIds: z.array(z.number().int().positive()).min(1).max(1000),
        details: z.boolean().optional(),
        history: z.boolean().optional(),
      })
      .strict(),
    output: SyncRunResult,
  },
  /** An incident's description (the detail endpoint), fetched ahead of any sync request. */
  fetchIncidentDetail: {
    input: z.object({ cdid: z.number().int().positive() }).strict(),
    output: z.object({ cdid: z.number().int(), description: z.string(), fetchedAt: z.number() }),
  },

  // Queries over the local archive with the shared filter state (handlers/incidents.ts; see
  // src-shared/filters.ts for the filter semantics). All of them answer from the engine's in-memory
  // snapshot except getIncident. Map points are typed arrays: the web host sends them with src-shared/wire.
  countIncidents: { input: FiltersInput, output: CountResult },
  getMapPoints: { input: FiltersInput, output: MapPoints },
  /** The map's first paint, before its points: the filtered incidents in a coarse grid. */
  getMapSketch: { input: MapSketchInput, output: MapSketch },
  /** A page of the table; limit ≤ 500. */
  listIncidents: { input: ListInput, output: ListResult },
  /**
   * Every stored field of one incident, for the incident panel. A negative cdid is an imported row
   * of another system, in its mapping's namespace (engine/import/mapping/apply.ts).
   */
  getIncident: { input: z.object({ cdid: z.number().int() }).strict(), output: IncidentDetail },
  historySeries: { input: SeriesInput, output: SeriesResult },
  /** This period vs the previous one and the same dates a year earlier, with coverage caveats. */
  comparePeriods: { input: CompareInput, output: CompareResult },
  hourWeekdayGrid: { input: FiltersInput, output: GridResult },
  topLocations: { input: TopLocationsInput, output: TopLocationsResult },
  /** Per-day completeness of the archive (for an area, or every area), as runs of days. */
  coverageBand: { input: CoverageInput, output: CoverageResult },
  /** What the archive holds: totals, date span and the types seen (unknown API types included). */
  getArchiveSummary: { input: Empty, output: ArchiveSummary },

  // Exports, the printable report and imports (handlers/exports.ts, handlers/imports.ts; see
  // src-shared/exports.ts). Progress arrives as exportProgress and importProgress events.
  /**
   * Starts writing the filtered incidents (CSV, GeoJSON or the PDF report); returns at once. The host
   * chooses the file (a destination the page sent is dropped) and prints a PDF's report page.
   */
  startExport: { input: StartExportInput, output: StartExportOutput, answeredBy: 'host-then-engine' },
  /** Stops an export; its partial file is removed. */
  cancelExport: { input: JobInput, output: z.object({ cancelled: z.boolean() }) },
  /** The figures of a PDF export, for the printable report page. */
  getReport: { input: JobInput, output: ReportModel },
  /** For hosts: the report page was printed into the job's file (or could not be). */
  finishReport: { input: FinishReportInput, output: z.object({ accepted: z.boolean() }) },
  /** Reads a file to import (source set by the host: an upload, or the open dialog's file). */
  previewImport: { input: PreviewImportInput, output: ImportPreview, answeredBy: 'host-then-engine' },
  /** Writes a previewed import into the archive, all or nothing. */
  runImport: { input: RunImportInput, output: ImportResult },
  discardImport: {
    input: z.object({ importId: z.string().min(1).max(64) }).strict(),
    output: z.object({ discarded: z.boolean() }),
  },
  /** Cancels the import's running preview or run (its call answers `cancelled`; nothing is written). */
  cancelImport: { input: Empty, output: z.object({ cancelled: z.boolean() }) },
  // The Import view's column mapping (src-shared/importMappingCalls.ts).
  ...importMappingCalls,
  // Rows without coordinates and the offline locator (src-shared/placesCalls.ts).
  ...placesCalls,

  // The map's street layer (handlers/basemap.ts; src-shared/basemap.ts). The engine reads the
  // user's .mbtiles/.pmtiles file or fetches the online tile URL (caching only tiles viewed), so the
  // page never talks to another host. A tile the source lacks answers not_found.
  getBasemapInfo: { input: Empty, output: BasemapInfo },
  getBasemapTile: { input: TileCoord, output: TileBytes },
  /**
   * The areas' offline extract (<data>/basemap/areas.pmtiles) from a PMTiles source URL: what it
   * will be (tiles, bytes, free space), start it (returns at once; basemapProgress events follow;
   * one at a time across app and CLI), cancel it.
   */
  estimateBasemapDownload: { input: BasemapDownloadInput, output: BasemapEstimate },
  startBasemapDownload: { input: BasemapDownloadInput, output: BasemapEstimate },
  cancelBasemapDownload: { input: Empty, output: z.object({ cancelled: z.boolean() }) },
  /** Which areas the extract covers (box + 1 km), and whether to offer extending it; local, no request. */
  getBasemapCoverage: { input: Empty, output: BasemapCoverage },

  // Crime analysis (handlers/analysis.ts; src-shared/analysis.ts). Each answers when done;
  // progress arrives as analysisProgress events under the caller's jobId; below 30 incidents: bad_input.
  analyzeHotSpots: { input: HotSpotsInput, output: HotSpotsOutput },
  analyzeKde: { input: KdeInput, output: KdeOutput },
  analyzeNearRepeat: { input: NearRepeatInput, output: NearRepeatOutput },
  analyzeRepeatLocations: { input: RepeatLocationsInput, output: RepeatLocationsOutput },
  analyzeCompStat: { input: CompStatInput, output: CompStatOutput },
  /** Stops a running analysis (its call answers `cancelled`). */
  cancelAnalysis: {
    input: z.object({ jobId: AnalysisJobId }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
  /** The map's time playback: the filtered incidents sorted by local day, a slice per day. */
  getPlaybackPoints: { input: FiltersInput, output: PlaybackPoints },

  // Alerts (handlers/alerts.ts; src-shared/alertCalls.ts): rules, the inbox, delivery channels.
  ...alertCalls,

  // Emailed bulletins (handlers/reportSchedules.ts; src-shared/reportSchedules.ts).
  ...reportScheduleCalls,

  // Office mode (handlers/office.ts; src-shared/officeCalls.ts): PostgreSQL archive, replica.
  ...officeCalls,

  // Boundaries (handlers/layers.ts; src-shared/layerCalls.ts): reference layers, areas from features.
  ...layerCalls,
} as const;

export type Contract = typeof contract;
export type CallName = keyof Contract;
export type CallInput<K extends CallName> = z.input<Contract[K]['input']>;
export type CallOutput<K extends CallName> = z.output<Contract[K]['output']>;

export const callNames = Object.keys(contract) as CallName[];

export type AnsweredBy = 'engine' | 'host' | 'host-then-engine';
type AnswerOf<K extends CallName> = Contract[K] extends { answeredBy: infer A extends AnsweredBy }
  ? A
  : 'engine';
/** Calls the host answers; the engine refuses them. */
export type HostCallName = { [K in CallName]: AnswerOf<K> extends 'host' ? K : never }[CallName];
/** Calls the host takes its part in before the engine answers them. */
export type HostStepName = { [K in CallName]: AnswerOf<K> extends 'host-then-engine' ? K : never }[CallName];
/** Calls the engine has a handler for (every call but the host's). */
export type EngineCallName = Exclude<CallName, HostCallName>;

/** Who answers `name` (see the top of this file). */
export function answeredBy(name: CallName): AnsweredBy {
  const entry = contract[name];
  return 'answeredBy' in entry ? entry.answeredBy : 'engine';
}

/** Where the call would let a stored secret go, from its parsed input; undefined for a call that moves none. */
export function secretDestinationOf(name: CallName, input: unknown): SecretDestination | undefined {
  const entry = contract[name] as { confirmsSecret?: (input: never) => SecretDestination };
  return entry.confirmsSecret ? entry.confirmsSecret(input as never) : undefined;
}

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
}

/** The IPC channel of a call. The only place a channel name is formed. */
export const channelOf = (name: CallName): string => `blotter:call:${name}`;
/** The IPC channel on which engine events reach the renderer. */
export const EVENT_CHANNEL = 'blotter:event';

// ---------------------------------------------------------------------------------------------
// Errors: every call resolves to a Result; failures carry a code the UI can act on.

export const ErrorCode = z.enum([
  'bad_input',
  'unknown_call',
  'forbidden_sender',
  'not_found',
  'keychain_unavailable',
  'no_api_key',
  /** A stored key would go to a base URL the user has not confirmed for it (api/keyAddress.ts). */
  'base_url_unconfirmed',
  'unauthorized',
  'ip_not_allowed',
  'rate_limited',
  'offline',
  'server_error',
  'bad_response',
  'conflict',
  'cancelled',
  'internal',
  // Local failures (engine/store/localFailure.ts): this computer's, never the service's.
  'disk_full',
  'database_locked',
  'database_corrupt',
  'disk_error',
  'native_module',
  /** Another Blotter process is syncing this area of the data folder (its pid is in the message). */
  'already_syncing',
  /** The office PostgreSQL database cannot be reached (or refused the login): CLI exit 8. */
  'office_unreachable',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const BridgeError = z.object({
  code: ErrorCode,
  message: z.string(),
  /** Field-level problems for bad_input: path → message. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** Turns a zod failure into a typed bad_input error that names each field. */
export function badInput(error: z.ZodError, what = 'input'): BridgeError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || what,
    message: issue.message,
  }));
  return {
    code: 'bad_input',
    message: `Invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  };
}

/** Parses a call's input against the contract; the one validation used by every host. */
export function parseCallInput<K extends CallName>(
  name: K,
  input: unknown,
): Result<z.output<Contract[K]['input']>> {
  const parsed = contract[name].input.safeParse(input ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as z.output<Contract[K]['input']> };
  return { ok: false, error: badInput(parsed.error, `input for ${name}`) };
}

// ---------------------------------------------------------------------------------------------
// Events pushed by the engine.

export const EngineEvent = z.discriminatedUnion('type', [
  SyncProgressFields.extend({
    type: z.literal('syncProgress'),
    /** For state 'failed': what went wrong and what to do, in plain words. */
    error: z.object({ code: ErrorCode, message: z.string() }).optional(),
  }),
  z.object({ type: z.literal('settingsChanged'), settings: SettingsView }),
  /**
   * The local archive changed: re-query counts and views. Sent by the engine from the commits that
   * changed rows, at most every 250 ms: a sync's (`areaId`; absent when several areas changed in
   * one interval), an import, an area deleted with its incidents, another process writing the file.
   * The one signal views follow; sync progress counters are for the status line only.
   */
  z.object({ type: z.literal('incidentsChanged'), areaId: z.number().int().optional() }),
  /**
   * The engine is reading the archive into memory (a first read, or again after another process
   * or a restored backup changed the file): `done` of about `total` incidents. Results (exports,
   * reports, analyses, CLI output) wait for it; at most every 250 ms, and at its end.
   */
  z.object({
    type: z.literal('archiveReading'),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('keyStatusChanged'), status: KeyStatus }),
  ExportProgressFields.extend({
    type: z.literal('exportProgress'),
    error: z.object({ code: ErrorCode, message: z.string() }).optional(),
  }),
  ImportProgressFields.extend({ type: z.literal('importProgress') }),
  /** A sync commit wrote alerts: the inbox count and what was raised (desktop notifications). */
  AlertsChangedFields.extend({ type: z.literal('alertsChanged') }),
  /** Report schedules are due (the engine's timer): a host that prints reports sends them. */
  ReportsDueFields.extend({ type: z.literal('reportsDue') }),
  /** The areas' basemap download (startBasemapDownload); 'done' means the map now draws it. */
  BasemapProgressFields.extend({ type: z.literal('basemapProgress') }),
  AnalysisProgressFields.extend({ type: z.literal('analysisProgress') }),
  /** An office pull (src-shared/officeCalls.ts; cancelOfficePull stops it). */
  OfficePullProgressFields.extend({ type: z.literal('officePullProgress') }),
  z.object({
    type: z.literal('connectivity'),
    online: z.boolean(),
    /** Plain words for the status bar, e.g. "Waiting 12 s: the server asked us to slow down". */
    message: z.string().optional(),
  }),
]);
export type EngineEvent = z.infer<typeof EngineEvent>;

// ---------------------------------------------------------------------------------------------
// The API object the preload exposes and the web bridge implements.

export type BlotterApi = {
  readonly [K in CallName]: (input: CallInput<K>) => Promise<Result<CallOutput<K>>>;
} & {
  /** Subscribes to engine events; returns the unsubscribe function. */
  readonly onEvent: (listener: (event: EngineEvent) => void) => () => void;
};

export { PlanId };
