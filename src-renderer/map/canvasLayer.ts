/**
 * A Leaflet layer that owns one canvas over the map (plus `padding` of its size on every side), in
 * its own pane: it pans with the map and is redrawn (by the subclass) after every move. The base for
 * the basemap, cluster, heat and place-label layers, which draw thousands of marks or vertices
 * without a DOM node or a Leaflet object each.
 *
 * One move fires several events at once (viewreset, zoom, zoomend, moveend…): they are coalesced
 * into one redraw, at the end of the current task ('task') or at the next frame ('frame', for layers
 * that can wait until the data layers are drawn). `viewChangedAt` is when the first of them fired.
 * During a zoom animation the canvas is either hidden or, with `zoomAnimated`, scaled like
 * Leaflet's own canvas renderer (the basemap stays on screen).
 */
import * as L from 'leaflet';

export type CanvasLayerOptions = {
  pane: string;
  timing?: 'task' | 'frame';
  /** Extra canvas around the view, as a fraction of its size (content shows while dragging). */
  padding?: number;
  zoomAnimated?: boolean;
};

type MapInternals = { _getNewPixelOrigin(center: L.LatLng, zoom: number): L.Point };

export abstract class CanvasLayer extends L.Layer {
  protected canvas: HTMLCanvasElement | null = null;
  protected map: L.Map | null = null;
  /** performance.now() of the first view change not yet drawn (or being drawn). */
  protected viewChangedAt = 0;
  private scheduled = false;
  private frame = 0;
  private readonly layerOptions: Required<CanvasLayerOptions>;
  /** The view the canvas was last drawn for (zoom animations scale from it). */
  private drawnCenter: L.LatLng | null = null;
  private drawnZoom = 0;

  constructor(options: CanvasLayerOptions | string) {
    super();
    this.layerOptions = {
      timing: 'task',
      padding: 0,
      zoomAnimated: false,
      ...(typeof options === 'string' ? { pane: options } : options),
    };
  }

  override onAdd(map: L.Map): this {
    this.map = map;
    const animated = this.layerOptions.zoomAnimated && map.options.zoomAnimation !== false;
    const canvas = L.DomUtil.create(
      'canvas',
      `${animated ? 'leaflet-zoom-animated' : 'leaflet-zoom-hide'} blotter-canvas-layer`,
    ) as HTMLCanvasElement;
    canvas.setAttribute('aria-hidden', 'true');
    map.getPane(this.layerOptions.pane)?.appendChild(canvas);
    this.canvas = canvas;
    map.on('moveend zoomend resize viewreset', this.schedule, this);
    if (animated) map.on('zoomanim', this.animateZoom, this);
    if (this.layerOptions.zoomAnimated) map.on('zoom', this.followZoom, this);
    this.schedule();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize viewreset', this.schedule, this);
    map.off('zoomanim', this.animateZoom, this);
    map.off('zoom', this.followZoom, this);
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.scheduled = false;
    this.canvas?.remove();
    this.canvas = null;
    this.map = null;
    return this;
  }

  /** Asks for one redraw after the events of this move. */
  protected schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.viewChangedAt = performance.now();
    const run = () => {
      this.frame = 0;
      if (!this.scheduled) return;
      this.scheduled = false;
      this.reset();
    };
    if (this.layerOptions.timing === 'frame') this.frame = requestAnimationFrame(run);
    else queueMicrotask(run);
  }

  /** The canvas's margin beyond the view, in CSS pixels. */
  protected margin(): L.Point {
    const size = this.map?.getSize() ?? L.point(0, 0);
    return L.point(
      Math.round(size.x * this.layerOptions.padding),
      Math.round(size.y * this.layerOptions.padding),
    );
  }

  /** Puts the canvas back over the view at the map's current size, then asks for a redraw. */
  protected reset(): void {
    const { map, canvas } = this;
    if (!map || !canvas) return;
    const size = map.getSize();
    const pad = this.margin();
    const width = size.x + 2 * pad.x;
    const height = size.y + 2 * pad.y;
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([-pad.x, -pad.y]));
    this.drawnCenter = map.getCenter();
    this.drawnZoom = map.getZoom();
    this.onViewChanged();
  }

  private animateZoom(event: L.ZoomAnimEvent): void {
    this.transformTo(event.center, event.zoom);
  }

  private followZoom(): void {
    if (this.map) this.transformTo(this.map.getCenter(), this.map.getZoom());
  }

  /** As L.Renderer does: scale and move the drawn canvas to where the view is going. */
  private transformTo(center: L.LatLng, zoom: number): void {
    const { map, canvas, drawnCenter } = this;
    if (!map || !canvas || !drawnCenter) return;
    const scale = map.getZoomScale(zoom, this.drawnZoom);
    const half = map.getSize().multiplyBy(0.5 + this.layerOptions.padding);
    const offset = half
      .multiplyBy(-scale)
      .add(map.project(drawnCenter, zoom))
      .subtract((map as unknown as MapInternals)._getNewPixelOrigin(center, zoom));
    L.DomUtil.setTransform(canvas, offset, scale);
  }

  /** A 2D context in CSS pixels of the map container (0, 0 = the view's top-left), cleared. */
  protected context(): CanvasRenderingContext2D | null {
    const ctx = this.canvas?.getContext('2d') ?? null;
    if (!ctx || !this.canvas) return null;
    const ratio = window.devicePixelRatio || 1;
    const pad = this.margin();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(ratio, 0, 0, ratio, pad.x * ratio, pad.y * ratio);
    return ctx;
  }

  /** The view moved or resized: draw again (or ask the worker for new data, then draw). */
  protected abstract onViewChanged(): void;
}
