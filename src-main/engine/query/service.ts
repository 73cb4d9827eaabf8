/**
 * The query service of one database: the snapshot (kept by SnapshotKeeper), the text index, the
 * cached filter results and the sort rankings. The query modules are plain functions over what it
 * hands them; calls.ts runs one per contract call. One per engine, built at start by
 * engine/services.ts (benches and tests construct their own).
 *
 * The freshness rule lives here, in `snapshot`: a result (anything that leaves the engine — CLI
 * output, an export, a report, an analysis, an import's comparison) is never computed from a
 * snapshot behind the file; it waits for the re-read (`onProgress` tells how far it is). Only the
 * app's views, asked for with `'view'`, may answer from it meanwhile, marked `updating`.
 */
import { dayNumber, resolveDateRange, type DayRange, type Filters } from '../../../src-shared/filters';
import { createLogger } from '../log';
import type { Db } from '../store/database';
import { PROVISIONAL_DAYS } from '../../../src-shared/provisional';
import { shapeOf } from './areaShape';
import { featureRegion, prepareFeatureRegion } from '../boundaries/featureRegion';
import { cdidMask } from './cdidMask';
import { focusMask } from './focusMask';
import { toFtsQuery, TextIndex } from './fts';
import type { Region } from '../../../src-shared/geo';
import { areaDayStatuses } from './ledger';
import { compileFilter, evaluate, type MatchSet } from './matchSet';
import { Ranking } from './ranking';
import type { Snapshot } from './snapshot';
import { yieldToEventLoop } from '../eventLoop';
import { SnapshotKeeper, type KeeperOptions } from './snapshotKeeper';
import { addressSortKey, allRows, byDate } from './sortOrders';

const log = createLogger('query');

/**
 * What an answer is for. `'result'` (the default): it leaves the engine — never from a snapshot
 * behind the file. `'view'`: one of the app's views (counts, map, table, history), which may answer
 * at once from a snapshot behind the file, marked `updating`, and asks again on `incidentsChanged`;
 * on a host whose every answer is a result (the CLI: `viewsMayLag` false) it is a result too.
 */
export type Reading = 'result' | 'view';

export type QueryServiceOptions = KeeperOptions & {
  /**
   * Whether `'view'` answers may come from a snapshot behind the file (the app's hosts: true).
   * Default false: every answer waits for the file's current state.
   */
  viewsMayLag?: boolean;
  /** The clock presets and provisional days are resolved against (default Date.now). */
  now?: () => number;
  /** Trailing days treated as provisional (still being reported); default: the sync's. */
  provisionalDays?: number;
};

/** A filter resolved against the snapshot: its rows, date range and shape. */
export type Resolved = { snapshot: Snapshot; set: MatchSet; range: DayRange; shape: Region | null };

export class QueryService {
  readonly now: () => number;
  readonly provisionalDays: number;
  readonly keeper: SnapshotKeeper;
  readonly viewsMayLag: boolean;
  private readonly text: TextIndex;
  private readonly sets = new Map<string, MatchSet>();
  private rankings: { snapshot: Snapshot; type: Ranking; address: Ranking } | null = null;
  private dateOrder: { version: number; rows: Uint32Array } | null = null;
  /** The background warm-up after the latest (re)load (benchmark, tests). */
  warmed: Promise<void> = Promise.resolve();

  constructor(
    readonly db: Db,
    options: QueryServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.provisionalDays = options.provisionalDays ?? PROVISIONAL_DAYS;
    this.viewsMayLag = options.viewsMayLag === true;
    this.text = new TextIndex(db);
    this.keeper = new SnapshotKeeper(db, log, {
      ...options,
      onReplace: (snapshot) => {
        this.sets.clear();
        this.text.clear();
        this.warmed = this.warm(snapshot);
        options.onReplace?.(snapshot);
      },
    });
  }

  /** Incidents were written (cdids given) or changed in bulk (none given: read all again). */
  incidentsWritten(cdids?: Iterable<number>): void {
    this.keeper.written(cdids);
  }

  /**
   * The snapshot, loaded and brought up to date: as the file stands (a re-read under way is
   * awaited), or — a view on a host whose views may lag — possibly behind it, marked `updating`.
   */
  snapshot(reading: Reading = 'result'): Promise<Snapshot> {
    return this.lags(reading) ? this.keeper.get() : this.keeper.fresh();
  }

  /** Whether an answer of this kind may come from a snapshot behind the file. */
  lags(reading: Reading): boolean {
    return reading === 'view' && this.viewsMayLag;
  }

  /**
   * The saved snapshot's facts (snapshotKeeper `savedFacts`) for an answer before the columns are
   * in memory; null when there are none, or when they are behind the file and the answer may not lag.
   */
  async savedFacts(reading: Reading): ReturnType<SnapshotKeeper['savedFacts']> {
    const facts = await this.keeper.savedFacts();
    return facts && (!facts.updating || this.lags(reading)) ? facts : null;
  }

  /** Stops background work and saves the snapshot; call before the database closes. */
  close(): Promise<void> {
    return this.keeper.close();
  }

  /** The local calendar day of the engine's clock, YYYY-MM-DD. */
  today(): string {
    const d = new Date(this.now());
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }

  /** The rows matching `filters` (its date range replaced by `range` when given). */
  async resolve(filters: Filters, range?: DayRange, reading: Reading = 'result'): Promise<Resolved> {
    // A big feature's region is made on the boundary thread meanwhile (featureRegion.ts).
    const [snapshot] = await Promise.all([
      this.snapshot(reading),
      filters.feature && prepareFeatureRegion(this.db, filters.feature),
    ]);
    return this.resolveIn(snapshot, filters, range);
  }

  private resolveIn(snapshot: Snapshot, filters: Filters, range?: DayRange): Resolved {
    const dayRange = range ?? resolveDateRange(filters, this.today());
    const shape = filters.area ? shapeOf(this.db, filters.area) : null;
    const query = filters.text ? toFtsQuery(filters.text) : null;
    const rest = { ...filters, from: 0, to: 0, preset: 0, text: 0 };
    const key = JSON.stringify([snapshot.version, dayRange, query, shape?.box, shape?.center, rest]);
    let set = this.sets.get(key);
    if (set) {
      this.sets.delete(key);
    } else {
      let text = query ? this.text.match(snapshot, query) : null;
      if (filters.cdids) text = cdidMask(snapshot, filters.cdids, text);
      if (filters.focus) text = focusMask(snapshot, filters.focus, text);
      // A reference layer's feature (ids never reused, so the key above names it).
      const feature = filters.feature ? featureRegion(this.db, filters.feature) : null;
      set = evaluate(snapshot, compileFilter(snapshot, filters, dayRange, { text, shape, feature }));
    }
    this.sets.set(key, set);
    while (this.sets.size > 4) this.sets.delete(this.sets.keys().next().value as string);
    return { snapshot, set, range: dayRange, shape };
  }

  /**
   * Work the first table and history calls would otherwise do, started after a (re)load and done
   * in slices between calls: the unfiltered set, address ranks, the archive's date order, each
   * area's ledger.
   */
  private async warm(snapshot: Snapshot): Promise<void> {
    try {
      await yieldToEventLoop();
      this.resolveIn(snapshot, {}); // the unfiltered view, and the filter loop compiled before the first click
      await this.ranks(snapshot, 'address');
      await yieldToEventLoop();
      this.allByDate(snapshot);
      const areas = this.db.prepare('SELECT DISTINCT area_id FROM coverage').pluck().all() as number[];
      const today = dayNumber(this.today());
      for (const id of areas) {
        await yieldToEventLoop();
        areaDayStatuses(this.db, id, today, today);
      }
    } catch (error) {
      log.debug('warm-up stopped', { error });
    }
  }

  /** Every row of the snapshot by date (ascending, ties in row order), once per snapshot version. */
  allByDate(snapshot: Snapshot): Uint32Array {
    if (this.dateOrder?.version !== snapshot.version) {
      this.dateOrder = { version: snapshot.version, rows: byDate(snapshot, allRows(snapshot.size)) };
    }
    return this.dateOrder.rows;
  }

  /** Alphabetical ranks of the snapshot's types and addresses (addresses by addressSortKey). */
  ranks(snapshot: Snapshot, of: 'type' | 'address'): Promise<Uint32Array> {
    if (this.rankings?.snapshot !== snapshot) {
      const previous = this.rankings;
      this.rankings = {
        snapshot,
        type: new Ranking(snapshot.types),
        address: new Ranking(snapshot.addresses, addressSortKey),
      };
      if (previous) {
        this.rankings.type.adopt(previous.type);
        this.rankings.address.adopt(previous.address);
      }
    }
    return this.rankings[of].ranks(yieldToEventLoop);
  }
}
