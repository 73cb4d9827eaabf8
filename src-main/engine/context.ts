/**
 * What every handler gets: the engine's resources and its services, as one plain object built once
 * in engine.ts. `EngineCore` is what exists before any service (the database, settings, keychain,
 * events, log); `EngineServices` are built from it in dependency order by services.ts, each
 * registering its cleanup with `onClose`. To add a service, add its field to `EngineServices` and
 * build it in services.ts after the services it needs.
 */
import type { CallOutput, EngineEvent } from '../../src-shared/contract';
import type { AnalysisService } from './analysis/service';
import type { AlertsService } from './alerts/service';
import type { FetchLike } from './api/source';
import type { BasemapService } from './basemap/basemapService';
import type { ExportJobs } from './export/jobs';
import type { Imports } from './import/imports';
import type { LayerService } from './boundaries/service';
import type { Logger } from './log';
import type { OfficeService } from './office/service';
import type { QueryService } from './query/service';
import type { SecretStore } from './secrets/secretStore';
import type { Db } from './store/database';
import type { SettingsRepo } from './store/settingsRepo';
import type { SyncService } from './sync/syncService';
import type { ReportScheduleService } from './schedules/service';

export type HostKind = CallOutput<'getAppInfo'>['host'];

export interface EngineCore {
  readonly db: Db;
  readonly dataDir: string;
  readonly host: HostKind;
  readonly version: string;
  readonly settings: SettingsRepo;
  readonly secrets: SecretStore;
  /** The keychain account of this data folder's API key: `api-key:<profileId>`. */
  readonly keyAccount: string;
  /** Pushes an event to every host listener (and on to the renderer). */
  readonly emit: (event: EngineEvent) => void;
  readonly log: Logger;
  /** Registers cleanup for engine close: run in reverse order, after calls in flight, before the DB closes. */
  readonly onClose: (dispose: () => void | Promise<void>) => void;
}

/** The engine's services, one of each per engine, built in this order (services.ts). */
export interface EngineServices {
  /** The fetch for the API and online tiles: the host's (EngineOptions.fetch) or Node's, made once. */
  readonly fetch: () => Promise<FetchLike>;
  /** The in-memory snapshot and every incident query (query/service.ts). */
  readonly query: QueryService;
  /** Areas, syncs, the refresh scheduler, connectivity (sync/syncService.ts). */
  readonly sync: SyncService;
  /** Export and report jobs (export/jobs.ts); closing cancels what still runs. */
  readonly exports: ExportJobs;
  /** Import previews and runs (import/imports.ts). */
  readonly imports: Imports;
  /** The map's street layer (basemap/basemapService.ts). */
  readonly basemap: BasemapService;
  /** Alert rules, the inbox, delivery channels and the delivery worker (alerts/service.ts). */
  readonly alerts: AlertsService;
  /** Hot spots, density, near repeat, repeat locations, CompStat (analysis/service.ts). */
  readonly analysis: AnalysisService;
  /** Office mode: the PostgreSQL link, its status and the replica's pull (office/service.ts). */
  readonly office: OfficeService;
  /** Reference layers (beats, schools…) and areas from boundary files (boundaries/service.ts). */
  readonly layers: LayerService;
  /** Emailed bulletins: report schedules, their timer and mail (schedules/service.ts). */
  readonly schedules: ReportScheduleService;
  // Still to land, each built in services.ts after what it reads: analysis (over query),
  // alerts (after the sync's commits), office (replica and leader).
}

export interface EngineContext extends EngineCore {
  readonly services: EngineServices;
}
