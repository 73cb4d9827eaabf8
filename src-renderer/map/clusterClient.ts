/**
 * The page's side of the cluster worker: one promise per question, and "latest wins" for clusters
 * and heat — while one is being computed, a newer request replaces any that waits, and superseded
 * ones resolve to null (a fast pan never queues a backlog). Points are transferred, not copied: the
 * page does not keep them.
 */
import type { ClusterBatch } from './clusterIndex';
import type { FromWorker, IncidentList, LoadedInfo, ToWorker } from './clusterProtocol';
import type { HeatImage, HeatView } from './heatGrid';
import type { BBox } from './projection';
import type { PointColumns } from './sites';

export type WorkerLike = {
  postMessage(message: ToWorker, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null;
  terminate(): void;
};

type Pending = { resolve: (m: FromWorker | null) => void };
type Slot = { busy: boolean; waiting: { send: () => void; drop: () => void } | null };

export function createClusterWorker(): WorkerLike {
  return new Worker(new URL('./clusterWorker.ts', import.meta.url), {
    type: 'module',
  }) as unknown as WorkerLike;
}

export class ClusterClient {
  private nextId = 1;
  private generation = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly slots: Record<'clusters' | 'heat', Slot> = {
    clusters: { busy: false, waiting: null },
    heat: { busy: false, waiting: null },
  };

  constructor(private readonly worker: WorkerLike = createClusterWorker()) {
    worker.onmessage = (event) => {
      const message = event.data;
      const entry = this.pending.get(message.id);
      this.pending.delete(message.id);
      entry?.resolve(message);
    };
  }

  private ask(message: ToWorker, transfer: Transferable[] = []): Promise<FromWorker | null> {
    return new Promise((resolve) => {
      this.pending.set(message.id, { resolve });
      this.worker.postMessage(message, transfer);
    });
  }

  /** Hands the points to the worker (their buffers move there) and waits for the new index. */
  async load(points: PointColumns): Promise<LoadedInfo> {
    const id = this.nextId++;
    this.generation = id;
    const transfer = [points.cdid.buffer, points.lat.buffer, points.lon.buffer, points.typeIndex.buffer];
    const answer = await this.ask({ id, type: 'load', points }, transfer);
    if (answer?.type !== 'loaded')
      throw new Error(answer?.type === 'error' ? answer.message : 'The cluster worker stopped.');
    return answer.info;
  }

  private latest<T>(
    kind: 'clusters' | 'heat',
    build: (id: number) => ToWorker,
    pick: (m: FromWorker) => T | null,
  ) {
    const slot = this.slots[kind];
    return new Promise<T | null>((resolve) => {
      const send = () => {
        slot.busy = true;
        const id = this.nextId++;
        void this.ask(build(id)).then((answer) => {
          slot.busy = false;
          resolve(answer ? pick(answer) : null);
          const next = slot.waiting;
          slot.waiting = null;
          next?.send();
        });
      };
      if (!slot.busy) return send();
      slot.waiting?.drop();
      slot.waiting = { send, drop: () => resolve(null) };
    });
  }

  /** The clusters in `bbox` at `zoom`, with the incidents per type inside `view` (default: bbox). */
  clusters(bbox: BBox, zoom: number, view: BBox = bbox): Promise<ClusterBatch | null> {
    const generation = this.generation;
    return this.latest(
      'clusters',
      (id) => ({ id, type: 'clusters', generation, bbox, zoom, view }),
      (m) => (m.type === 'clusters' && m.generation === this.generation ? m.batch : null),
    );
  }

  heat(view: HeatView): Promise<HeatImage | null> {
    const generation = this.generation;
    return this.latest(
      'heat',
      (id) => ({ id, type: 'heat', generation, view }),
      (m) => (m.type === 'heat' && m.generation === this.generation ? m.image : null),
    );
  }

  async expansionZoom(clusterId: number): Promise<number | null> {
    const m = await this.ask({ id: this.nextId++, type: 'expand', generation: this.generation, clusterId });
    return m?.type === 'expand' ? m.zoom : null;
  }

  /** The box holding every incident of a cluster (id ≥ 0) or site (id < 0): [west, south, east, north]. */
  async extent(clusterId: number): Promise<BBox | null> {
    const m = await this.ask({ id: this.nextId++, type: 'extent', generation: this.generation, clusterId });
    return m?.type === 'extent' ? m.bbox : null;
  }

  /** The incidents of a cluster (id ≥ 0) or a site (id < 0): at most `limit` rows and the total. */
  async incidents(target: number, limit = 200): Promise<IncidentList | null> {
    const m = await this.ask({
      id: this.nextId++,
      type: 'incidents',
      generation: this.generation,
      target,
      limit,
    });
    return m?.type === 'incidents' ? m.list : null;
  }

  terminate(): void {
    this.worker.terminate();
    for (const entry of this.pending.values()) entry.resolve(null);
    this.pending.clear();
  }
}
