/**
 * Builds an engine's services once, in dependency order, when the engine starts — each after every
 * service it is given, none referring to one built later: the fetch, the alerts (they hear the
 * sync's and the office pull's commits), the query service (the snapshot every read uses), the
 * office link (its pull tells the query and the alerts), the areas (the folder's or the office's),
 * the sync (writes incidents; reads the fetch, leads through the office link), analysis (reads the
 * query service), exports (the report's figures are the analysis') and imports (read the query
 * service), the basemap (reads the fetch), the reference layers (boundary files; their counts read
 * the query service) and the report schedules (mailed by the office's leader). Each registers its
 * cleanup with `onClose`, so the engine closes them in reverse order before the database.
 * Building does no I/O beyond SQLite's own file: nothing is fetched, no keychain is asked, no
 * snapshot is read; what an engine starts in the background is EngineOptions' choice (engine.ts).
 */
import { DEFAULT_BASEMAP } from '../../src-shared/basemap';
import { AnalysisService } from './analysis/service';
import type { EngineEvent } from '../../src-shared/contract';
import { createAlertsService } from './alerts/service';
import { engineFetch } from './api/hostFetch';
import type { FetchLike } from './api/source';
import { areaBoxes } from './basemap/areaBoxes';
import { createBasemapService } from './basemap/basemapService';
import { areaEditsByMode, standaloneAreaEdits } from './areas/areaEdits';
import { createAreaStore } from './areas/areaStore';
import type { EngineServices } from './context';
import type { EngineCore } from './core';
import { dataRunner } from './export/dataExport';
import { gisRunners } from './export/gisRunners';
import { ExportJobs } from './export/jobs';
import { Imports } from './import/imports';
import { LayerService } from './boundaries/service';
import { createOfficeService } from './office/service';
import { createReportScheduleService } from './schedules/service';
import { QueryService } from './query/service';
import { pdfRunner } from './report/reportJob';
import { createEngineSync } from './sync/engineSync';
import { WriteTurns } from './store/writeTurns';

export type ServiceOptions = {
  /** The host's fetch (Electron: net.fetch across the worker's port); default Node's. */
  fetch?: FetchLike | null;
};

export function buildServices(core: EngineCore, options: ServiceOptions = {}): EngineServices {
  const fetch = engineFetch(options.fetch);

  // Alerts are written in the sync's page commits and the office pull's (their hooks, below); the
  // service announces them (alertsChanged) when it hears of a commit that changed incidents, ours or
  // another process's, and runs the delivery worker (Node's fetch: the webhook POSTs a body). Built
  // first so the sync's emit reaches it.
  const alerts = createAlertsService(core);
  alerts.start();
  core.onClose(() => alerts.stop());
  const heard = (event: EngineEvent) => {
    core.emit(event);
    if (event.type === 'incidentsChanged') alerts.afterIncidentsChanged(core.emit);
  };

  const query = new QueryService(core.db, {
    // The app's views may answer from a saved snapshot behind the file, marked "updating"; every
    // answer of the CLI is output, so it waits for the file's current state like any result.
    viewsMayLag: core.host !== 'cli',
    // Another process wrote the file, or the saved snapshot was behind: the views should ask again.
    onExternalChange: () => heard({ type: 'incidentsChanged' }),
    // What a result waiting for a (re-)read shows: the CLI prints it, the app may.
    onProgress: (read) => core.emit({ type: 'archiveReading', ...read }),
  });
  core.onClose(() => query.close());

  // Whose turn it is to write: an import's merge on its own connection holds it, a sync page waits.
  const writeTurns = new WriteTurns(core.db);

  // Office mode: opens its PostgreSQL pool only when asked (join, status, pull). The incidents a
  // pull brings are evaluated by this desktop's alert rules, as a sync's page is.
  const office = createOfficeService(
    { ...core, emit: heard },
    {
      incidentsWritten: () => query.incidentsWritten(),
      onIncidentsPulled: (tx, fresh) => alerts.onIncidentsPulled(tx, fresh),
      writeTurns,
    },
  );
  core.onClose(() => office.close());

  // The areas the app edits: the folder's own, or its office's while it is joined to one.
  const areas = areaEditsByMode(standaloneAreaEdits(core.db, createAreaStore(core.db)), () =>
    office.areaEdits(),
  );

  // Each page is evaluated by the alert rules inside its commit; office mode: a sync leads or
  // follows through the office link (asked at each start).
  const sync = createEngineSync({ ...core, emit: heard, writeTurns }, fetch, {
    office: () => office.syncLink(),
    onPageCommitted: (tx, written) => alerts.onPageCommitted(tx, written),
  });

  const analysis = new AnalysisService(core, query);
  core.onClose(() => analysis.closeAll());

  const exports = new ExportJobs(core, query, {
    csv: dataRunner,
    geojson: dataRunner,
    ...gisRunners,
    // The report's hot spot map and CompStat table come from the analysis service.
    pdf: pdfRunner(undefined, () => analysis),
  });
  core.onClose(() => exports.closeAll());

  const imports = new Imports({ ...core, query, writeTurns });
  core.onClose(() => imports.close());

  const basemap = createBasemapService({
    dataDir: core.dataDir,
    setting: () => core.settings.get().basemap ?? DEFAULT_BASEMAP,
    fetch,
    userAgent: `Blotter/${core.version} (desktop crime-incident analysis; fetches only tiles its user views)`,
    boxes: () => areaBoxes(core.db),
    source: () => core.settings.get().basemapSource,
    emit: (progress) => core.emit({ type: 'basemapProgress', ...progress }),
  });
  core.onClose(() => basemap.close());

  // Reference layers and boundary files: previews in memory, layers in the file, counts over the query.
  const layers = new LayerService({ db: core.db, dataDir: core.dataDir, query, writeTurns });
  core.onClose(() => layers.close());

  // Emailed bulletins: the timer says when a schedule is due; the host prints (sendDueReports).
  const schedules = createReportScheduleService(core, { exports, leads: () => office.leadsReportMail() });
  schedules.start();
  core.onClose(() => schedules.stop());

  return {
    fetch,
    query,
    sync,
    exports,
    imports,
    basemap,
    analysis,
    alerts,
    office,
    areas,
    layers,
    schedules,
    writeTurns,
  };
}
