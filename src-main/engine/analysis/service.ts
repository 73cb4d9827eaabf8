/**
 * The analysis service (one per engine, built in services.ts after the query service): turns a
 * contract call into an analysis run. The filters resolve to rows through the query service's
 * match set (the one filter engine, so the analysis runs on exactly the incidents the map and the
 * table show); `pickColumnsSliced` copies their columns for the helper thread; the saved areas in scope
 * give the coverage mask (their shapes) and CompStat's areas (their rows, zone and day statuses).
 * Jobs have ids (the caller's, or made here), send `analysisProgress` events (≤ 1 per 150 ms, plus
 * each end) and can be cancelled; the answer carries the provenance (filters, the archive's
 * coverage, the app's version) beside the analysis's own parameters.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  AnalysisKind,
  AnalysisProvenance,
  CompStatInput as CompStatCallInput,
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
} from '../../../src-shared/analysis';
import { compStatAsOfProblem } from '../../../src-shared/analysis';
import { filterWords, type FilterWordsContext } from '../../../src-shared/filterWords';
import { dayNumber, dayString, type Filters } from '../../../src-shared/filters';
import { contains, type Shape } from '../../../src-shared/geo';
import type { EngineCore } from '../core';
import { featureLabel, featureRegion } from '../boundaries/featureRegion';
import { createLayerStore } from '../boundaries/layerStore';
import { EngineError } from '../errors';
import { areasInScope, provenanceOf } from '../provenance/provenance';
import { dayStatuses, scopeAreas } from '../query/coverage';
import { repeatPlacesInSteps, zoneOfRow } from '../query/repeatPlaces';
import { yieldToEventLoop } from '../eventLoop';
import type { QueryService, Resolved } from '../query/service';
import { createAreaStore } from '../areas/areaStore';
import { compStatCsv } from './compstatCsv';
import { drainSliced, membersSliced, pickColumnsSliced, slicedMap } from './slices';
import { compStatRange, todayIn, type CompStatArea } from './compstat';
import { FEET } from './knox';
import { hotSpotGeoJsonSliced, kdeGeoJsonSliced } from './outputs';
import { playbackPoints } from './playback';
import { AnalysisRefused, requireEnough } from './points';
import { repeatPlaceOut } from './repeatPlaceOut';
import { AnalysisCancelled, runAnalysis } from './runner';

const PROGRESS_EVERY_MS = 150;

type Job = { id: string; kind: AnalysisKind; controller: AbortController; lastEmit: number };
type Run = typeof runAnalysis;

export class AnalysisService {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly ctx: Pick<EngineCore, 'db' | 'settings' | 'emit' | 'version'>,
    private readonly query: QueryService,
    private readonly run: Run = runAnalysis,
  ) {}

  async hotSpots(input: z.output<typeof HotSpotsInput>): Promise<HotSpotsOutput> {
    return this.job('hotspots', input.jobId, async (job) => {
      const { resolved, columns, shapes } = await this.rowsOf(input.filters, 'Hot spot analysis', job);
      const result = await this.run(
        {
          kind: 'hotspots',
          columns: { lat: columns.lat, lon: columns.lon },
          options: {
            ...(input.grid ? { grid: input.grid } : {}),
            ...(input.cellSizeM ? { cellSizeM: input.cellSizeM } : {}),
            ...(input.distanceBandM ? { distanceBandM: input.distanceBandM } : {}),
            ...(shapes.length ? { coverage: shapes } : {}),
          },
        },
        this.runOptions(job, true),
      );
      const provenance = await this.provenance(input.filters, resolved);
      const context = { filters: input.filters, coverage: provenance.coverage };
      return { jobId: job.id, provenance, geojson: await hotSpotGeoJsonSliced(result, context) };
    });
  }

  async kde(input: z.output<typeof KdeInput>): Promise<KdeOutput> {
    return this.job('kde', input.jobId, async (job) => {
      const { resolved, columns, shapes } = await this.rowsOf(input.filters, 'Kernel density', job);
      const format = input.format ?? 'raster';
      const options = {
        ...(input.radiusM ? { radiusM: input.radiusM } : {}),
        ...(input.cellSizeM ? { cellSizeM: input.cellSizeM } : {}),
        ...(shapes.length ? { coverage: shapes } : {}),
      };
      const lonLat = { lat: columns.lat, lon: columns.lon };
      if (format !== 'geojson') {
        // The raster or GeoTIFF is made on the helper thread too (outputs.ts).
        const image = await this.run(
          { kind: 'kdeImage', columns: lonLat, options: { ...options, format } },
          this.runOptions(job, true),
        );
        return { jobId: job.id, provenance: await this.provenance(input.filters, resolved), ...image };
      }
      const result = await this.run(
        { kind: 'kde', columns: lonLat, options: { ...options, format } },
        this.runOptions(job, true),
      );
      const provenance = await this.provenance(input.filters, resolved);
      const context = { filters: input.filters, coverage: provenance.coverage };
      return {
        jobId: job.id,
        provenance,
        parameters: result.parameters,
        max: result.max,
        geojson: await kdeGeoJsonSliced(result, context),
      };
    });
  }

  async nearRepeat(input: z.output<typeof NearRepeatInput>): Promise<NearRepeatOutput> {
    return this.job('nearRepeat', input.jobId, async (job) => {
      const { resolved, columns } = await this.rowsOf(input.filters, 'The near-repeat test', job);
      const types = input.filters.types ?? [];
      const result = await this.run(
        {
          kind: 'nearRepeat',
          columns: { lat: columns.lat, lon: columns.lon, day: columns.day },
          options: {
            space: input.spaceBands,
            spaceUnit: input.spaceUnit,
            time: input.timeBandsDays,
            ...(input.iterations ? { iterations: input.iterations } : {}),
            ...(input.seed !== undefined ? { seed: input.seed } : {}),
            ...(types.length === 1 ? { subject: `${(types[0] as string).toLowerCase()} incidents` } : {}),
          },
        },
        this.runOptions(job, true),
      );
      const provenance = await this.provenance(input.filters, resolved);
      // A significant cell's pairs: indices into the columns, read back as incidents of the snapshot.
      const { snapshot } = resolved;
      const incident = (k: number) => {
        const row = columns.rows[k] as number;
        return {
          cdid: snapshot.cdid[row] as number,
          type: snapshot.types.values[snapshot.type[row] as number] ?? '',
          address: snapshot.addresses.values[snapshot.addr[row] as number] ?? '',
          utc: snapshot.utc[row] as number,
          zone: zoneOfRow(snapshot, row),
        };
      };
      const perUnit = input.spaceUnit === 'ft' ? FEET : 1;
      const cells = result.cells.map(({ pairs, ...cell }) =>
        pairs
          ? {
              ...cell,
              pairs: pairs.map((p) => ({
                a: incident(p.i),
                b: incident(p.j),
                distance: Math.round((p.distanceM / perUnit) * 10) / 10,
                days: p.days,
              })),
            }
          : cell,
      );
      return {
        jobId: job.id,
        provenance,
        cells,
        summary: result.summary,
        parameters: result.parameters,
      };
    });
  }

  async repeatLocations(input: z.output<typeof RepeatLocationsInput>): Promise<RepeatLocationsOutput> {
    return this.job('repeatLocations', input.jobId, async (job) => {
      const limit = input.limit ?? 200;
      const distanceM = input.distanceM ?? 0;
      if (!(distanceM > 0)) {
        // By block address: History's rule (query/repeatPlaces.ts), so both list the same places.
        const resolved = await this.query.resolve(input.filters);
        requireEnough(resolved.set.count, 'Repeat locations');
        const { snapshot, set } = resolved;
        const slices = this.sliceOptions(job);
        await yieldToEventLoop(); // the filter's resolve was one stretch already
        // The places (two passes over the filter's rows: ~100 ms at 1M) and each place's days and
        // ids (~400 ms for 200 places): in slices that yield.
        const { places, total } = await drainSliced(
          repeatPlacesInSteps(snapshot, set.rows, limit, true),
          slices,
        );
        const groups = await slicedMap(places, (p) => repeatPlaceOut(snapshot, p.rows, p), slices);
        this.emit(job, 'running', 1);
        return {
          jobId: job.id,
          provenance: await this.provenance(input.filters, resolved),
          groups,
          totalGroups: total,
          parameters: { method: 'block address', distance_m: 0, incidents: set.count, utm_epsg: null },
        };
      }
      const { resolved, columns } = await this.rowsOf(input.filters, 'Repeat locations', job);
      const result = await this.run(
        {
          kind: 'repeatLocations',
          columns: { lat: columns.lat, lon: columns.lon, day: columns.day },
          distanceM,
        },
        this.runOptions(job, true),
      );
      const provenance = await this.provenance(input.filters, resolved);
      // The columns went to the thread (transferred): read the places back from the snapshot's rows.
      const groups = await slicedMap(
        result.groups.slice(0, limit),
        ({ members }) =>
          repeatPlaceOut(
            resolved.snapshot,
            members.map((m) => columns.rows[m] as number),
          ),
        this.sliceOptions(job),
      );
      return {
        jobId: job.id,
        provenance,
        groups,
        totalGroups: result.groups.length,
        parameters: result.parameters,
      };
    });
  }

  async compStat(input: z.output<typeof CompStatCallInput>): Promise<CompStatOutput> {
    return this.job('compstat', input.jobId, async (job) => {
      if (input.asOf !== undefined) {
        const problem = compStatAsOfProblem(input.asOf);
        if (problem) throw new EngineError('bad_input', problem);
      }
      // The periods are set by the as-of day alone: the filter's dates are replaced by the days
      // CompStat reads (every area's "today" is within two days of the engine's, whatever its zone).
      const filters = compStatFilters(input.filters, input.asOf, dayNumber(this.query.today()));
      const resolved = await this.query.resolve(filters);
      const { snapshot, set } = resolved;
      requireEnough(set.count, 'CompStat');
      await yieldToEventLoop(); // the filter's resolve was one stretch already
      const columns = await pickColumnsSliced(snapshot, set.rows, this.sliceOptions(job));
      const now = this.query.now();
      const coverageContext = {
        db: this.ctx.db,
        snapshot,
        today: dayNumber(this.query.today()),
        provisionalDays: this.query.provisionalDays,
      };
      const { checkCancelled } = this.sliceOptions(job);
      const tableOf = async (
        contains: ((lat: number, lon: number) => boolean) | null,
        areaIds: number[],
      ): Promise<Pick<CompStatArea, 'rows' | 'zone' | 'coverage'>> => {
        // In slices that yield: at 1M incidents and a layer's features this is a long stretch.
        const members = await membersSliced(columns.lat, columns.lon, contains, { checkCancelled });
        await yieldToEventLoop(); // the zone and the coverage below are a stretch of their own
        const zone = zoneOf(snapshot.zones.values, snapshot.zone, columns.rows, members);
        const today = input.asOf ? dayNumber(input.asOf) : todayIn(zone, now);
        const range = compStatRange(today);
        // The coverage ledger says which days the archive holds for these areas (the weakest wins).
        const coverage = dayStatuses(coverageContext, areaIds, range.from, range.to);
        return { rows: members, zone, coverage };
      };
      const areas: CompStatArea[] = [];
      if (input.layerId !== undefined) {
        // One table per feature of the layer: its incidents, and the coverage of the ledgered
        // areas its box overlaps (the archive basis where none is).
        const store = createLayerStore(this.ctx.db);
        const layer = store.get(input.layerId);
        if (!layer)
          throw new EngineError('not_found', 'That reference layer no longer exists; pick another.');
        const polygons = store.features(layer.id).filter((f) => f.geometry.kind !== 'points');
        if (!polygons.length)
          throw new EngineError(
            'bad_input',
            `"${layer.name}" has no polygon features: CompStat by feature needs beats or districts.`,
          );
        for (const f of polygons) {
          const region = featureRegion(this.ctx.db, { layerId: layer.id, featureId: f.id });
          const b = region.box;
          const inside = (lat: number, lon: number) =>
            lat >= b.minLat &&
            lat <= b.maxLat &&
            lon >= b.minLon &&
            lon <= b.maxLon &&
            region.contains(lat, lon);
          areas.push({
            id: 0,
            name: f.name,
            feature: { layerId: layer.id, layer: layer.name, featureId: f.id },
            ...(await tableOf(inside, scopeAreas(this.ctx.db, filters.area, b))),
          });
        }
      } else if (filters.feature) {
        // One feature of a layer (a beat, maybe with a distance around it): one table named after
        // it, counting the filter's incidents (was a table per area, the beat's and every other).
        const store = createLayerStore(this.ctx.db);
        const f = store.feature(filters.feature.featureId);
        const layer = f ? store.get(f.layerId) : undefined;
        if (!f || !layer)
          throw new EngineError(
            'not_found',
            'That reference layer or feature no longer exists; pick another.',
          );
        const region = featureRegion(this.ctx.db, filters.feature);
        areas.push({
          id: 0,
          name: f.name,
          feature: { layerId: layer.id, layer: layer.name, featureId: f.id },
          ...(await tableOf(null, scopeAreas(this.ctx.db, filters.area, region.box))),
        });
      } else {
        const scope = areasInScope(this.ctx, filters, resolved.shape?.box ?? null);
        const areaList = scope.length ? scope : [null];
        for (const area of areaList)
          areas.push({
            id: area?.id ?? 0,
            name: area?.name ?? 'All incidents',
            ...(await tableOf(
              area ? (lat, lon) => contains(area.shape, lat, lon) : null,
              area ? [area.id] : [],
            )),
          });
      }
      const result = await this.run(
        {
          kind: 'compstat',
          input: {
            day: columns.day,
            type: columns.type,
            typeNames: snapshot.types.values,
            areas,
            now,
            ...(input.asOf ? { asOf: input.asOf } : {}),
          },
        },
        this.runOptions(job, true),
      );
      const provenance = await this.provenance(filters, resolved);
      const out = {
        jobId: job.id,
        provenance,
        areas: result.areas,
        parameters: result.parameters,
        filterWords: this.compStatWords(input.filters),
      };
      return input.format === 'csv' ? { ...out, csv: compStatCsv(result, provenance) } : out;
    });
  }

  /** The filters a CompStat table applies, in words for its caption (compStatFilterWords). */
  private compStatWords(filters: Filters): string[] {
    const areas = createAreaStore(this.ctx.db);
    return compStatFilterWords(filters, {
      areaName: (id) => areas.get(id)?.name,
      featureName: (f) => featureLabel(this.ctx.db, f),
    });
  }

  /** The map's time playback: the filter's incidents sorted by local day, with offsets (playback.ts). */
  async playback(filters: Filters): Promise<PlaybackPoints> {
    return playbackPoints(await this.query.resolve(filters));
  }

  /** Stops a running analysis; false when it is not running (finished, or never known). */
  cancel(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    if (!job) return false;
    job.controller.abort();
    return true;
  }

  /** Cancels what still runs (engine close). */
  closeAll(): void {
    for (const job of this.jobs.values()) job.controller.abort();
  }

  private async job<T>(
    kind: AnalysisKind,
    jobId: string | undefined,
    work: (job: Job) => Promise<T>,
  ): Promise<T> {
    const id = jobId ?? randomBytes(6).toString('hex');
    if (this.jobs.has(id))
      throw new EngineError('conflict', 'An analysis with that job id is already running.');
    const job: Job = { id, kind, controller: new AbortController(), lastEmit: 0 };
    this.jobs.set(id, job);
    this.emit(job, 'running', 0);
    try {
      const out = await work(job);
      this.emit(job, 'done', 1);
      return out;
    } catch (error) {
      if (error instanceof AnalysisCancelled) {
        this.emit(job, 'cancelled', 0);
        throw new EngineError('cancelled', 'The analysis was cancelled.');
      }
      this.emit(job, 'failed', 0);
      if (error instanceof AnalysisRefused) throw new EngineError('bad_input', error.message);
      throw error;
    } finally {
      this.jobs.delete(id);
    }
  }

  /** Work on the engine thread in slices that yield; a cancelled job stops between them. */
  private sliceOptions(job: Job) {
    return {
      checkCancelled: () => {
        if (job.controller.signal.aborted) throw new AnalysisCancelled();
      },
    };
  }

  private runOptions(job: Job, transfer: boolean) {
    return {
      signal: job.controller.signal,
      transfer,
      onProgress: (fraction: number) => {
        const t = performance.now();
        if (t - job.lastEmit < PROGRESS_EVERY_MS) return;
        job.lastEmit = t;
        this.emit(job, 'running', fraction);
      },
    };
  }

  private emit(job: Job, state: 'running' | 'done' | 'failed' | 'cancelled', fraction: number): void {
    this.ctx.emit({ type: 'analysisProgress', jobId: job.id, kind: job.kind, state, fraction });
  }

  /** The filter's rows as columns (refusing below 30) and the saved areas' shapes for the mask. */
  private async rowsOf(filters: Filters, what: string, job: Job) {
    const resolved = await this.query.resolve(filters);
    requireEnough(resolved.set.count, what);
    await yieldToEventLoop(); // the filter's resolve was one stretch already
    const columns = await pickColumnsSliced(resolved.snapshot, resolved.set.rows, this.sliceOptions(job));
    const shapes: Shape[] = areasInScope(this.ctx, filters, resolved.shape?.box ?? null).map((a) => a.shape);
    return { resolved, columns, shapes };
  }

  private async provenance(filters: Filters, resolved: Resolved): Promise<AnalysisProvenance> {
    const coverage = await provenanceOf(
      this.ctx,
      this.query,
      filters,
      resolved.range,
      resolved.shape?.box ?? null,
    );
    return {
      filters,
      incidents: resolved.set.count,
      coverage,
      createdAt: new Date(this.query.now()).toISOString(),
      app: { name: 'Blotter', version: this.ctx.version },
    };
  }
}

/** The most common zone among the members (an area's incidents share one zone); UTC when none. */
function zoneOf(names: readonly string[], zone: Uint16Array, rows: Uint32Array, members: number[]): string {
  const counts = new Map<number, number>();
  for (const m of members) {
    const z = zone[rows[m] as number] as number;
    counts.set(z, (counts.get(z) ?? 0) + 1);
  }
  let best = -1;
  let bestCount = 0;
  for (const [z, c] of counts) if (c > bestCount) [best, bestCount] = [z, c];
  return names[best] ?? 'UTC';
}

/**
 * CompStat's filters: the caller's, but its dates, which CompStat's periods replace (issue 25,
 * item 3: a "7 days" filter under "Year to date" counted 7 days). The days read are those of
 * every period for the as-of day, or for any "today" within two days of the engine's (an area's
 * zone moves its today by a day at most).
 */
export function compStatFilters(filters: Filters, asOf: string | undefined, engineToday: number): Filters {
  const { preset: _preset, from: _from, to: _to, ...rest } = filters;
  const days = asOf !== undefined ? [dayNumber(asOf)] : [engineToday - 2, engineToday + 2];
  const ranges = days.map(compStatRange);
  return {
    ...rest,
    from: dayString(Math.min(...ranges.map((r) => r.from))),
    to: dayString(Math.max(...ranges.map((r) => r.to))),
  };
}

/**
 * What a CompStat table counts, in words for its caption: every filter but the dates (each period
 * is counted to the as-of day), and a line saying the date filter was set aside when one was set.
 */
export function compStatFilterWords(filters: Filters, context: FilterWordsContext): string[] {
  const words = filterWords(filters, context).filter(
    (w) => !w.startsWith('Dates:') && (filters.includeRemoved || !w.startsWith('Incidents the API')),
  );
  const dated = (filters.preset !== undefined && filters.preset !== 'all') || !!filters.from || !!filters.to;
  if (dated) words.push('Dates: not applied (each period is counted up to the as-of day)');
  return words;
}
