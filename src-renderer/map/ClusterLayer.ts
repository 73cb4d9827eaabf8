/**
 * The incidents on the map: asks the cluster worker for the clusters of the visible box at the
 * current zoom after every move, draws them on one canvas, and answers clicks (which row was hit).
 * Each re-cluster's time (worker round trip + draw) is recorded for the benchmark.
 */
import type * as L from 'leaflet';
import { CanvasLayer } from './canvasLayer';
import type { ClusterClient } from './clusterClient';
import type { ClusterBatch } from './clusterIndex';
import { drawClusters, hitTest, type DrawnMarks, type MarkStyle } from './drawClusters';
import { mark, perf, record } from './perf';
import type { BBox } from './projection';

export type Pick = { id: number; count: number; lat: number; lon: number };

export type ClusterLayerOptions = {
  client: ClusterClient;
  style: () => MarkStyle;
  onDrawn?: (batch: ClusterBatch) => void;
  onPick?: (pick: Pick) => void;
};

export function paddedBox(map: L.Map, pad = 0.15): BBox {
  const b = map.getBounds().pad(pad);
  return [
    Math.max(-180, b.getWest()),
    Math.max(-85, b.getSouth()),
    Math.min(180, b.getEast()),
    Math.min(85, b.getNorth()),
  ];
}

export class ClusterLayer extends CanvasLayer {
  private batch: ClusterBatch | null = null;
  /** The engine's coarse first paint (mapSketch), drawn until the worker's index is in. */
  private sketch: ClusterBatch | null = null;
  private marks: DrawnMarks | null = null;
  private colours: string[] = [];
  private active = false;
  private seq = 0;

  constructor(private readonly opts: ClusterLayerOptions) {
    super('blotter-clusters');
  }

  override onAdd(map: L.Map): this {
    super.onAdd(map);
    map.on('click', this.click, this);
    map.on('mousemove', this.hover, this);
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('click', this.click, this);
    map.off('mousemove', this.hover, this);
    return super.onRemove(map);
  }

  /**
   * The first paint before the worker has an index: the sketch's cells drawn as clusters (they
   * count every incident of the filters), redrawn as the map moves until `refresh` replaces them.
   */
  showSketch(batch: ClusterBatch, colours: string[], updating: boolean): void {
    if (this.active) return;
    this.sketch = batch;
    this.batch = batch;
    this.colours = colours;
    this.draw();
    const p = perf();
    if (p.firstClustersAt === null && this.map) {
      p.firstClustersAt = performance.now();
      let total = 0;
      for (let i = 0; i < batch.size; i++) total += batch.count[i] as number;
      p.firstClusters = { source: 'sketch', total, updating };
      mark('first-clusters');
    }
  }

  /** New points were loaded into the worker: draw them with these type colours. */
  refresh(colours: string[]): void {
    this.colours = colours;
    this.active = true;
    this.sketch = null;
    this.recluster(performance.now(), false);
  }

  protected onViewChanged(): void {
    if (!this.active && this.sketch) this.draw();
    this.recluster(this.viewChangedAt, true);
  }

  /**
   * Asks the worker for the clusters of the padded view (and the incidents per type in the visible
   * one), then draws them. A move is timed from its first Leaflet event to the drawn canvas.
   */
  private recluster(since: number, moved: boolean): void {
    const map = this.map;
    if (!map || !this.active) return;
    const mine = ++this.seq;
    void this.opts.client.clusters(paddedBox(map), map.getZoom(), paddedBox(map, 0)).then((batch) => {
      // Only the answer for the latest view is drawn: an older one would mark the wrong places.
      if (!batch || this.map !== map || mine !== this.seq) return;
      this.batch = batch;
      this.draw();
      const p = perf();
      const now = performance.now();
      if (moved) {
        record(p.recluster, now - since);
        mark('recluster', since);
      }
      if (p.firstClustersAt === null) {
        p.firstClustersAt = now;
        let total = 0;
        for (let i = 0; i < batch.size; i++) total += batch.count[i] as number;
        p.firstClusters = { source: 'index', total, updating: false };
        mark('first-clusters');
      }
      this.opts.onDrawn?.(batch);
    });
  }

  private draw(): void {
    const { map, batch } = this;
    const ctx = this.context();
    if (!map || !batch || !ctx) return;
    this.marks = drawClusters(
      ctx,
      batch,
      this.colours,
      (lat, lon) => map.latLngToContainerPoint([lat, lon]),
      this.opts.style(),
    );
    const m = this.marks;
    perf().marks = Array.from({ length: batch.size }, (_, i) => ({
      x: m.x[i] as number,
      y: m.y[i] as number,
      r: m.r[i] as number,
      count: batch.count[i] as number,
      cluster: (batch.id[i] as number) >= 0,
    }));
  }

  private rowAt(point: L.Point): number {
    return this.marks && this.batch ? hitTest(this.marks, this.batch.count, point.x, point.y) : -1;
  }

  private click(event: L.LeafletMouseEvent): void {
    const row = this.rowAt(event.containerPoint);
    const batch = this.batch;
    if (row < 0 || !batch || this.sketch) return;
    this.opts.onPick?.({
      id: batch.id[row] as number,
      count: batch.count[row] as number,
      lat: batch.lat[row] as number,
      lon: batch.lon[row] as number,
    });
  }

  private hover(event: L.LeafletMouseEvent): void {
    const container = this.map?.getContainer();
    if (container) container.classList.toggle('blotter-over-mark', this.rowAt(event.containerPoint) >= 0);
  }
}
