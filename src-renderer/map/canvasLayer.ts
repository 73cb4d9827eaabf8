/**
 * A Leaflet layer that owns one canvas the size of the map, in its own pane: it pans with the map,
 * hides during zoom animations, and is redrawn (by the subclass) after every move. The base for the
 * cluster, heat and place-label layers, which draw thousands of marks without a DOM node each.
 */
import * as L from 'leaflet';

export abstract class CanvasLayer extends L.Layer {
  protected canvas: HTMLCanvasElement | null = null;
  protected map: L.Map | null = null;
  private readonly paneName: string;

  constructor(pane: string) {
    super();
    this.paneName = pane;
  }

  override onAdd(map: L.Map): this {
    this.map = map;
    const canvas = L.DomUtil.create('canvas', 'leaflet-zoom-hide blotter-canvas-layer') as HTMLCanvasElement;
    canvas.setAttribute('aria-hidden', 'true');
    map.getPane(this.paneName)?.appendChild(canvas);
    this.canvas = canvas;
    map.on('moveend zoomend resize viewreset', this.reset, this);
    this.reset();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize viewreset', this.reset, this);
    this.canvas?.remove();
    this.canvas = null;
    this.map = null;
    return this;
  }

  /** Puts the canvas back over the viewport at the map's current size, then asks for a redraw. */
  protected reset(): void {
    const { map, canvas } = this;
    if (!map || !canvas) return;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(size.x * ratio) || canvas.height !== Math.round(size.y * ratio)) {
      canvas.width = Math.round(size.x * ratio);
      canvas.height = Math.round(size.y * ratio);
      canvas.style.width = `${size.x}px`;
      canvas.style.height = `${size.y}px`;
    }
    L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([0, 0]));
    this.onViewChanged();
  }

  /** A 2D context in CSS pixels, cleared. */
  protected context(): CanvasRenderingContext2D | null {
    const ctx = this.canvas?.getContext('2d') ?? null;
    if (!ctx || !this.canvas) return null;
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    return ctx;
  }

  /** The view moved or resized: draw again (or ask the worker for new data, then draw). */
  protected abstract onViewChanged(): void;
}
