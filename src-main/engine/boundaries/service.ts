/**
 * The boundaries service (one per engine, built in ../services.ts, `ctx.services.layers`): reads a
 * boundary file into a preview held in memory (nothing written), keeps a preview as a reference
 * layer or makes areas of its polygons, lists, renames and deletes layers, and counts the filtered
 * incidents within a distance of each feature of a layer (the query's match set, so the counts
 * are those of the one filter engine).
 */
import { randomUUID } from 'node:crypto';
import type { ImportSource } from '../../../src-shared/exports';
import type { Filters } from '../../../src-shared/filters';
import type { BoundaryPreview, BufferCountResult, LayerView } from '../../../src-shared/layerCalls';
import { EngineError } from '../errors';
import { openSource } from '../files/sources';
import type { QueryService } from '../query/service';
import { yieldToEventLoop } from '../eventLoop';
import { deferCheckpoint } from '../store/backgroundCheckpoint';
import type { Db } from '../store/database';
import type { WriteTurns } from '../store/writeTurns';
import { featureName, type Attribute } from './boundaryFile';
import {
  BoundaryJobCancelled,
  BoundaryRefused,
  BoundaryThreads,
  type BoundaryJob,
  type ResultOf,
} from './boundaryThread';
import type { NearCounts } from './countNear';
import type { AreaShapeOf } from './featureAreas';
import { packedBytes, type HeldFile } from './heldFile';
import { BIG_LAYER_BYTES, countNearLayerIn, packedLayer, type PackedLayer } from './layerReads';
import { createLayerStore, type LayerRecord } from './layerStore';

type Held = { file: HeldFile; fileName: string; at: number };

/** Previews are kept this long unless used or discarded (a page closed mid-way). */
const PREVIEW_MS = 30 * 60_000;
const MAX_PREVIEWS = 4;
/** Areas made from one file at most (each polygon part is an area, synced on its own). */
export const MAX_AREAS_FROM_FILE = 200;

export const layerView = (l: LayerRecord): LayerView => ({
  id: l.id,
  name: l.name,
  nameField: l.nameField,
  sourceName: l.sourceName,
  format: l.format,
  crs: l.crs,
  featureCount: l.featureCount,
  kinds: l.kinds,
  createdAt: l.createdAt,
});

/**
 * A preview whose packed geometry is over this (~25k corners) is kept on the boundary helper
 * thread's own writer connection: 2M corners held the engine thread 0.7–1.1 s in one insert.
 */
export const KEEP_ON_THREAD_BYTES = 400_000;

/** Characters of an attribute the preview's name picker shows. */
const PREVIEW_TEXT = 1_000;

/**
 * A feature's attributes for the preview, long texts cut: a KML description of 190 MB (or
 * embedded images) went whole to the page in the preview's answer. The kept layer keeps them whole.
 */
function shortened(properties: Record<string, Attribute>): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const [k, v] of Object.entries(properties))
    out[k] = typeof v === 'string' && v.length > PREVIEW_TEXT ? `${v.slice(0, PREVIEW_TEXT)}…` : v;
  return out;
}

/** A helper thread's refusal in the user's words (bad_input), or its cancelling (the engine closing). */
const asEngineError =
  (prefix: string) =>
  (error: unknown): never => {
    if (error instanceof BoundaryRefused) throw new EngineError('bad_input', `${prefix}${error.message}`);
    if (error instanceof BoundaryJobCancelled) throw new EngineError('cancelled', 'The engine is closing.');
    throw error;
  };

export class LayerService {
  readonly store;
  private readonly previews = new Map<string, Held>();
  /** Ends the helper threads still reading or shaping when the engine closes. */
  private readonly closing = new AbortController();
  /** One per running preview read: cancelPreview aborts them (their threads are ended). */
  private readonly reads = new Set<AbortController>();
  /** The helper threads, one kept between jobs (boundaryThread.ts). */
  readonly threads = new BoundaryThreads();

  constructor(
    private readonly deps: {
      db: Db;
      dataDir: string;
      query: QueryService;
      /** The engine's write turns: a big keep holds them while its thread writes (store/writeTurns.ts). */
      writeTurns?: WriteTurns;
      now?: () => number;
    },
  ) {
    this.store = createLayerStore(deps.db);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /**
   * Reads and checks a boundary file on a helper thread (boundaryThread.ts): the engine thread
   * answers other calls meanwhile, and holds only the result (geometry as the store's JSON text).
   * A read stopped by cancelPreview answers `cancelled`, nothing held.
   */
  async preview(source: ImportSource | undefined): Promise<BoundaryPreview> {
    const opened = openSource(this.deps.dataDir, source);
    const read = new AbortController();
    this.reads.add(read);
    const file = await this.inThread({ kind: 'read', file: opened.file, name: opened.name }, read.signal)
      .catch((error: unknown) => {
        if (error instanceof BoundaryJobCancelled && read.signal.aborted && !this.closing.signal.aborted)
          throw new EngineError('cancelled', 'Reading cancelled.');
        return asEngineError(`${opened.name}: `)(error);
      })
      .finally(() => this.reads.delete(read));
    const now = this.now();
    for (const [id, held] of this.previews) if (now - held.at > PREVIEW_MS) this.previews.delete(id);
    while (this.previews.size >= MAX_PREVIEWS)
      this.previews.delete(this.previews.keys().next().value as string);
    const previewId = randomUUID();
    this.previews.set(previewId, { file, fileName: opened.name, at: now });
    return {
      previewId,
      fileName: opened.name,
      format: file.format,
      crs: file.crs,
      featureCount: file.features.length,
      kinds: [...new Set(file.features.map((f) => f.kind))].sort(),
      fields: file.fields,
      nameField: file.nameField,
      features: file.features
        .slice(0, 200)
        .map((f) => ({ index: f.index, kind: f.kind, properties: shortened(f.properties) })),
      skipped: file.skipped.slice(0, 100),
      box: file.box,
    };
  }

  /**
   * Stops the boundary files being read (their helper threads ended; the next read starts a fresh
   * one). False when none is being read.
   */
  cancelPreview(): boolean {
    if (this.reads.size === 0) return false;
    for (const read of this.reads) read.abort();
    return true;
  }

  /** A helper-thread job, ended when the engine closes (or by `signal`); a closed service starts none. */
  private inThread<J extends BoundaryJob>(job: J, signal?: AbortSignal): Promise<ResultOf<J>> {
    if (this.closing.signal.aborted)
      return Promise.reject(new EngineError('cancelled', 'The engine is closing.'));
    const ended = signal ? AbortSignal.any([this.closing.signal, signal]) : this.closing.signal;
    return this.threads.run(job, { signal: ended });
  }

  private held(previewId: string): Held {
    const held = this.previews.get(previewId);
    if (!held) throw new EngineError('not_found', 'That file is no longer read in; choose it again.');
    return held;
  }

  private checkField(file: HeldFile, field: string | null): void {
    if (field !== null && !file.fields.includes(field))
      throw new EngineError('bad_input', `The file has no attribute "${field}".`, [
        { path: 'nameField', message: `Pick one of: ${file.fields.join(', ')}` },
      ]);
  }

  /**
   * Keeps a preview as a layer: its geometry written out as the store's JSON on a helper thread,
   * then one insert transaction here — or, for a big one, there too (`keepOnThread`). The preview is taken at once (a second keep of it is
   * refused), and put back if the keep fails.
   */
  async importLayer(previewId: string, name: string, nameField: string | null): Promise<LayerView> {
    const held = this.held(previewId);
    this.checkField(held.file, nameField);
    this.previews.delete(previewId);
    try {
      const turns = this.deps.writeTurns;
      const bytes = held.file.features.reduce((n, f) => n + packedBytes(f), 0);
      if (turns && bytes > KEEP_ON_THREAD_BYTES)
        return layerView(await this.keepOnThread(turns, held, name, nameField));
      const texts = await this.inThread({
        kind: 'stored',
        geometries: held.file.features.map((f) => f.geometry),
      }).catch(asEngineError(''));
      const { features, ...file } = held.file;
      const stored = features.map((f, k) => ({ ...f, geometry: texts[k] as string }));
      const layer = this.store.create(
        { ...file, features: stored },
        { name, nameField, sourceName: held.fileName },
        this.now(),
      );
      return layerView(layer);
    } catch (error) {
      if (!this.closing.signal.aborted) this.previews.set(previewId, held);
      throw error;
    }
  }

  /**
   * A big preview's keep: written on the helper thread's writer connection in one transaction while
   * this thread holds the write turns (a sync page meanwhile waits its turn, never "database is
   * locked"), the log checkpointed afterwards in the background.
   */
  private async keepOnThread(
    turns: WriteTurns,
    held: Held,
    name: string,
    nameField: string | null,
  ): Promise<LayerRecord> {
    const { features, format, crs, fields, skipped } = held.file;
    const job = {
      kind: 'keep' as const,
      dbFile: this.deps.db.name,
      file: { format, crs, fields, skipped },
      features,
      input: { name, nameField, sourceName: held.fileName },
      now: this.now(),
    };
    return turns.hold(async () => {
      const checkpoint = deferCheckpoint(this.deps.db);
      try {
        return await this.inThread(job).catch(asEngineError(''));
      } finally {
        void checkpoint.release();
      }
    });
  }

  /**
   * The areas a preview's polygon features make (simplified and validated by the area rules on a
   * helper thread); the caller creates them.
   */
  async areaShapes(
    previewId: string,
    nameField: string | null,
    indexes?: number[],
    names?: string[],
  ): Promise<AreaShapeOf[]> {
    const held = this.held(previewId);
    this.checkField(held.file, nameField);
    const wanted = indexes ? new Set(indexes) : null;
    const named = names ? new Set(names.map((n) => n.trim().toLowerCase())) : null;
    const chosen = held.file.features.filter(
      (f) =>
        (!wanted || wanted.has(f.index)) && (!named || named.has(featureName(f, nameField).toLowerCase())),
    );
    if (wanted && chosen.length !== wanted.size)
      throw new EngineError('bad_input', 'Some chosen features are not in the file; read it again.');
    if (named) {
      const found = new Set(chosen.map((f) => featureName(f, nameField).toLowerCase()));
      const missing = [...named].filter((n) => !found.has(n));
      if (missing.length > 0)
        throw new EngineError(
          'bad_input',
          `No feature is named ${missing.map((m) => `"${m}"`).join(', ')} by ${nameField ?? 'its position'}.`,
        );
    }
    const shapes = await this.inThread({ kind: 'areas', features: chosen, nameField }).catch(
      asEngineError(''),
    );
    if (shapes.length > MAX_AREAS_FROM_FILE) {
      throw new EngineError(
        'bad_input',
        `That would make ${shapes.length.toLocaleString('en-US')} areas (at most ${MAX_AREAS_FROM_FILE} at once): each area is synced on its own. Choose the features to sync, or keep the file as a reference layer and filter by its features.`,
      );
    }
    return shapes;
  }

  discard(previewId: string): boolean {
    return this.previews.delete(previewId);
  }

  layer(layerId: number): LayerRecord {
    const layer = this.store.get(layerId);
    if (!layer) throw new EngineError('not_found', 'That reference layer no longer exists.');
    return layer;
  }

  /** Whether a layer's geometry is big enough to be parsed on the helper thread (layerReads.ts). */
  private isBig(layerId: number): boolean {
    return this.store.geometryBytes(layerId) > BIG_LAYER_BYTES;
  }

  /**
   * A layer's features as the map draws them, the geometry packed in typed arrays (the answer
   * crosses to the host as bytes). A big layer's geometry is parsed and packed on the helper thread
   * over its own read-only connection, its arrays moved here (2M corners held the engine thread
   * ~1–3 s to parse, then 0.6–2.7 s to send as nested arrays).
   */
  async packedLayer(layerId: number): Promise<PackedLayer> {
    if (!this.isBig(layerId)) return packedLayer(this.deps.db, layerId);
    return this.inThread({ kind: 'layerFeatures', dbFile: this.deps.db.name, layerId }).catch(
      asEngineError(''),
    );
  }

  /**
   * The filtered incidents within `metres` of each feature of a layer (points need a distance;
   * polygons count their inside too), and how many distinct incidents that is (countNear.ts: a
   * grid over the match set's rows, each feature's box first). A small layer is counted here (the
   * loop yields every ~30 ms); a big one's geometry is parsed and counted on the helper thread.
   */
  async countNear(filters: Filters, layerId: number, metres: number): Promise<BufferCountResult> {
    const layer = this.layer(layerId);
    const features = this.store.featureNames(layerId);
    if (metres <= 0 && features.some((f) => f.kind === 'points'))
      throw new EngineError('bad_input', `"${layer.name}" has points: give a distance around them.`, [
        { path: 'bufferM', message: 'Points need a distance.' },
      ]);
    const { snapshot, set } = await this.deps.query.resolve(filters);
    const rows = set.rows;
    const m = rows.length;
    const lat = new Float64Array(m);
    const lon = new Float64Array(m);
    for (let j = 0; j < m; j++) {
      const r = rows[j] as number;
      lat[j] = snapshot.lat[r] as number;
      lon[j] = snapshot.lon[r] as number;
    }
    const near: NearCounts = this.isBig(layerId)
      ? await this.inThread({
          kind: 'countNear',
          dbFile: this.deps.db.name,
          layerId,
          lat,
          lon,
          metres,
        }).catch(asEngineError(''))
      : await countNearLayerIn(this.deps.db, layerId, lat, lon, metres, yieldToEventLoop);
    const out: BufferCountResult['features'] = features.map((f, k) => ({
      id: f.id,
      name: f.name,
      count: near.counts[k] ?? 0,
    }));
    return { layerId, bufferM: metres, features: out, total: near.total, filtered: m };
  }

  close(): void {
    this.closing.abort();
    this.threads.close();
    this.previews.clear();
  }
}
