/**
 * One function per contract call, over a QueryService: what handlers/incidents.ts, the benchmark
 * and the tests run. Inputs are the contract's parsed (z.output) inputs. Each answers a result
 * (from the file's current state) unless asked for a `'view'` (service.ts `Reading`): the handlers
 * ask for views; an export, a report or a manifest calling these gets results.
 */
import type { z } from 'zod';
import { dayNumber, resolveDateRange, type Filters } from '../../../src-shared/filters';
import type {
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
} from '../../../src-shared/incidentQueries';
import { hourWeekdayGrid, topLocations } from './aggregates';
import { comparePeriods } from './compare';
import { archiveSummary, countFromFacts, countIncidents, factsAnswer } from './counts';
import { coverageBand, dayStatuses, scopeAreas, type CoverageContext } from './coverage';
import { getIncident } from './incident';
import { rowOrigins } from '../store/imports/importProvenance';
import { listIncidents } from './list';
import { mapPoints } from './mapPoints';
import { sketchFromSnapshot, sketchFromStore, storeCanSketch } from './mapSketch';
import { historySeries } from './series';
import type { QueryService, Reading } from './service';

type In<S extends z.ZodType> = z.output<S>;

async function coverageContext(service: QueryService, reading: Reading): Promise<CoverageContext> {
  return {
    db: service.db,
    snapshot: await service.snapshot(reading),
    today: dayNumber(service.today()),
    provisionalDays: service.provisionalDays,
  };
}

/** Marks an answer from a saved snapshot that is behind the file (snapshotKeeper.ts `updating`). */
function withUpdating<T extends object>(service: QueryService, answer: T): T & { updating?: boolean } {
  return service.keeper.updating ? { ...answer, updating: true } : answer;
}

export const incidentCalls = {
  async countIncidents(
    service: QueryService,
    { filters }: In<typeof FiltersInput>,
    reading: Reading = 'result',
  ): Promise<CountResult> {
    const started = performance.now();
    // Before the saved snapshot's columns are in memory: its header's counts per day and type.
    if (!service.keeper.inMemory && factsAnswer(filters)) {
      const facts = await service.savedFacts(reading);
      if (facts && !service.keeper.inMemory) {
        const counts = countFromFacts(facts, filters, resolveDateRange(filters, service.today()));
        return facts.updating ? { ...counts, updating: true } : counts;
      }
    }
    const resolved = await service.resolve(filters, undefined, reading);
    return withUpdating(service, countIncidents(resolved, performance.now() - started));
  },

  async getMapPoints(
    service: QueryService,
    { filters }: In<typeof FiltersInput>,
    reading: Reading = 'result',
  ): Promise<MapPoints> {
    return withUpdating(service, mapPoints(await service.resolve(filters, undefined, reading)));
  },

  /** From the snapshot; from SQL while a first read is under way (the first launch on a file). */
  async getMapSketch(
    service: QueryService,
    { filters, zoom }: In<typeof MapSketchInput>,
    reading: Reading = 'result',
  ): Promise<MapSketch> {
    if (!service.keeper.inMemory && storeCanSketch(filters))
      return sketchFromStore(service.db, filters, service.today(), zoom);
    const sketch = sketchFromSnapshot(await service.resolve(filters, undefined, reading), zoom);
    return { ...sketch, updating: service.keeper.updating };
  },

  async listIncidents(
    service: QueryService,
    input: In<typeof ListInput>,
    reading: Reading = 'result',
  ): Promise<ListResult> {
    const page = await listIncidents(
      service,
      await service.resolve(input.filters, undefined, reading),
      input,
    );
    // Each row's origin (API or file) and kept columns, from the store: one query for the page.
    const origins = rowOrigins(
      service.db,
      page.rows.map((r) => r.cdid),
    );
    return { ...page, rows: page.rows.map((r) => ({ ...r, ...origins.get(r.cdid) })) };
  },

  async getIncident(service: QueryService, { cdid }: { cdid: number }): Promise<IncidentDetail> {
    return getIncident(service.db, cdid);
  },

  async historySeries(
    service: QueryService,
    { filters, interval }: In<typeof SeriesInput>,
    reading: Reading = 'result',
  ): Promise<SeriesResult> {
    return historySeries(await service.resolve(filters, undefined, reading), interval);
  },

  async comparePeriods(
    service: QueryService,
    { filters, from, to }: In<typeof CompareInput>,
    reading: Reading = 'result',
  ): Promise<CompareResult> {
    const undated: Filters = { ...filters, preset: 'all', from: undefined, to: undefined };
    const resolved = await service.resolve(undated, { from: null, to: null }, reading);
    const ctx = await coverageContext(service, reading);
    const areas = scopeAreas(service.db, filters.area, resolved.shape?.box ?? null);
    return comparePeriods({ resolved, from, to, coverage: (lo, hi) => dayStatuses(ctx, areas, lo, hi) });
  },

  async hourWeekdayGrid(
    service: QueryService,
    { filters }: In<typeof FiltersInput>,
    reading: Reading = 'result',
  ): Promise<GridResult> {
    return hourWeekdayGrid(await service.resolve(filters, undefined, reading));
  },

  async topLocations(
    service: QueryService,
    { filters, limit }: In<typeof TopLocationsInput>,
    reading: Reading = 'result',
  ): Promise<TopLocationsResult> {
    return topLocations(await service.resolve(filters, undefined, reading), limit);
  },

  async coverageBand(
    service: QueryService,
    input: In<typeof CoverageInput>,
    reading: Reading = 'result',
  ): Promise<CoverageResult> {
    const ctx = await coverageContext(service, reading);
    const areas = scopeAreas(service.db, input.areaId ? { areaId: input.areaId } : undefined, null);
    const to = input.to ? Math.min(dayNumber(input.to), ctx.today) : ctx.today;
    return coverageBand(ctx, areas, input.from ? dayNumber(input.from) : null, to);
  },

  async getArchiveSummary(service: QueryService, reading: Reading = 'result'): Promise<ArchiveSummary> {
    if (!service.keeper.inMemory) {
      const facts = await service.savedFacts(reading); // the saved header, before the columns
      if (facts && !service.keeper.inMemory) return facts.summary;
    }
    return archiveSummary(await service.snapshot(reading));
  },
};

export type IncidentCallName = keyof typeof incidentCalls;
