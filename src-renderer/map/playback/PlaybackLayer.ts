/**
 * The incidents of one playback period on the map: a canvas in its own pane above the clusters,
 * drawn from a slice [begin, end) of the day-sorted columns — the step's incidents only, projected
 * with Web Mercator arithmetic (no Leaflet object per point), one path per type in its colour, each
 * incident a dot of the normal map's size with its halo (drawClusters' single incident; issue 26
 * item 6: 5 px squares were hard to see).
 * While it is on the map the cluster and heat panes are hidden, so the map shows the period alone.
 */
import type * as L from 'leaflet';
import type { PlaybackPoints } from '../../../src-shared/analysis';
import { CanvasLayer } from '../canvasLayer';
import { markRadius } from '../drawClusters';
import { periodInView, toPixel, type PixelView } from './playbackModel';

export const PLAYBACK_PANE = 'blotter-playback';
const HIDDEN_PANES = ['blotter-clusters', 'blotter-heat'];
/** A single incident's dot on the normal map, and its halo. */
export const PLAYBACK_MARK = { radius: markRadius(1, false), halo: '#ffffff', haloWidth: 1.5 } as const;

/** A drawn step: `drawn` counts the canvas's margin too, `inView` (per type) the view alone. */
export type Drawn = { begin: number; end: number; drawn: number; inView: Record<string, number>; ms: number };

export class PlaybackLayer extends CanvasLayer {
  private points: PlaybackPoints | null = null;
  private colours: string[] = [];
  private range: [number, number] = [0, 0];
  constructor(private readonly onDrawn: (d: Drawn) => void = () => undefined) {
    super({ pane: PLAYBACK_PANE, padding: 0.1 });
  }

  override onAdd(map: L.Map): this {
    if (!map.getPane(PLAYBACK_PANE)) {
      const pane = map.createPane(PLAYBACK_PANE);
      pane.style.zIndex = '425';
      pane.style.pointerEvents = 'none';
    }
    for (const name of HIDDEN_PANES) map.getPane(name)?.style.setProperty('visibility', 'hidden');
    return super.onAdd(map);
  }

  override onRemove(map: L.Map): this {
    for (const name of HIDDEN_PANES) map.getPane(name)?.style.removeProperty('visibility');
    return super.onRemove(map);
  }

  setPoints(points: PlaybackPoints | null, colours: string[]): void {
    this.points = points;
    this.colours = colours;
    this.range = [0, 0];
  }

  /** Draws the incidents [begin, end) now (a step of the slider). */
  show(begin: number, end: number): void {
    this.range = [begin, end];
    this.onViewChanged();
  }

  protected override onViewChanged(): void {
    const started = performance.now();
    const { map, points } = this;
    const ctx = this.context();
    if (!map || !ctx || !points) return;
    const [begin, end] = this.range;
    const view: PixelView = {
      scale: 256 * 2 ** map.getZoom(),
      origin: map.getPixelBounds().min ?? { x: 0, y: 0 },
      size: map.getSize(),
    };
    const { size } = view;
    const pad = this.margin();
    const { lat, lon, typeIndex } = points;
    // One pass: each incident's screen position into its type's path (few types, one fill each).
    const paths = new Map<number, Path2D>();
    let drawn = 0;
    for (let k = begin; k < end; k++) {
      const [x, y] = toPixel(lat[k] as number, lon[k] as number, view);
      if (x < -pad.x || y < -pad.y || x > size.x + pad.x || y > size.y + pad.y) continue;
      const t = typeIndex[k] as number;
      let path = paths.get(t);
      if (!path) paths.set(t, (path = new Path2D()));
      path.moveTo(x + PLAYBACK_MARK.radius, y);
      path.arc(x, y, PLAYBACK_MARK.radius, 0, Math.PI * 2);
      drawn++;
    }
    ctx.globalAlpha = 0.9;
    ctx.lineWidth = PLAYBACK_MARK.haloWidth;
    ctx.strokeStyle = PLAYBACK_MARK.halo;
    for (const [t, path] of paths) {
      ctx.fillStyle = this.colours[t] ?? '#9e9e9e';
      ctx.fill(path);
      ctx.stroke(path);
    }
    const ms = performance.now() - started;
    this.onDrawn({ begin, end, drawn, inView: periodInView(points, begin, end, view), ms });
  }
}
