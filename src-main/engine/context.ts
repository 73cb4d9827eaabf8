/**
 * What every handler gets: the engine's resources and its services, as one plain object built once
 * in engine.ts. `EngineCore` (core.ts) is what exists before any service (the database, settings,
 * keychain, events, log); `EngineServices` are built from it in dependency order by services.ts,
 * each registering its cleanup with `onClose`. To add a service, add its field to `EngineServices`
 * and build it in services.ts after the services it needs. Services import the core from core.ts,
 * never this file: it names them.
 */
import type { AnalysisService } from './analysis/service';
import type { AreaEdits } from './areas/areaEdits';
import type { EngineCore } from './core';
import type { AlertsService } from './alerts/service';
import type { FetchLike } from './api/source';
import type { BasemapService } from './basemap/basemapService';
import type { ExportJobs } from './export/jobs';
import type { Imports } from './import/imports';
import type { LayerService } from './boundaries/service';
import type { OfficeService } from './office/service';
import type { QueryService } from './query/service';
import type { SyncService } from './sync/syncService';
import type { ReportScheduleService } from './schedules/service';
import type { WriteTurns } from './store/writeTurns';

export type { EngineCore, HostKind } from './core';

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
  /** The watched areas to read and edit: this folder's, or its office's while joined (areas/areaEdits.ts). */
  readonly areas: AreaEdits;
  /** Reference layers (beats, schools…) and areas from boundary files (boundaries/service.ts). */
  readonly layers: LayerService;
  /** Emailed bulletins: report schedules, their timer and mail (schedules/service.ts). */
  readonly schedules: ReportScheduleService;
  /** Whose turn it is to write the archive: a long write on a helper thread holds it (store/writeTurns.ts). */
  readonly writeTurns: WriteTurns;
}

export interface EngineContext extends EngineCore {
  readonly services: EngineServices;
}
