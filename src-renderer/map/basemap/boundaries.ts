/**
 * Bundled US boundaries (us-atlas, Census cartographic boundaries at 1:10m, unprojected lon/lat):
 * land and state lines always, county lines from zoom 7. Two canvases (land under the street layer,
 * lines over it) drawn from geometry projected once and simplified per zoom (boundaryGeometry.ts):
 * after a move only the vertices in view are transformed and traced, in the next animation frame
 * (after the move's own work, such as asking for clusters). Each canvas has a margin around the view
 * so a drag shows boundaries before it ends, and scales during zoom animations. No network; the
 * county file is a separate chunk loaded when a user first zooms near that far.
 */
import type * as L from 'leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { CanvasLayer } from '../canvasLayer';
import { packParts, partsOf, traceLines, traceRings, ZoomedShapes, type Frame } from './boundaryGeometry';
import type { MapTheme } from './theme';

export const COUNTY_MIN_ZOOM = 7;
/** County lines are loaded a level early, so they are ready when the map gets there. */
const COUNTY_LOAD_ZOOM = COUNTY_MIN_ZOOM - 1;
const PADDING = 0.2;

type Atlas = Topology<{ states: GeometryCollection; nation: GeometryCollection }>;
type CountyAtlas = Topology<{ counties: GeometryCollection }>;

export type LineStyle = {
  shapes: ZoomedShapes;
  colour: string;
  width: number;
  opacity: number;
  minZoom?: number;
};

/** One basemap canvas: filled rings and stroked lines, in order. */
export class BoundaryLayer extends CanvasLayer {
  private fills: { shapes: ZoomedShapes; colour: string }[] = [];
  private lines: LineStyle[] = [];

  constructor(pane: string) {
    super({ pane, timing: 'frame', padding: PADDING, zoomAnimated: true });
  }

  addFill(shapes: ZoomedShapes, colour: string): this {
    this.fills.push({ shapes, colour });
    this.redraw();
    return this;
  }

  /** Lines drawn under those added before (county lines go under state lines). */
  addLines(style: LineStyle, below = false): this {
    if (below) this.lines.unshift(style);
    else this.lines.push(style);
    this.redraw();
    return this;
  }

  private redraw(): void {
    if (this.map) this.schedule();
  }

  protected onViewChanged(): void {
    const map = this.map;
    const ctx = this.context();
    if (!map || !ctx) return;
    const zoom = map.getZoom();
    const size = map.getSize();
    const pad = this.margin();
    // Container (0, 0) in world pixels at this zoom, as Leaflet places everything else.
    const origin = map.getPixelOrigin().add(map.containerPointToLayerPoint([0, 0]));
    const frame: Frame = {
      left: origin.x,
      top: origin.y,
      scale: map.options.crs?.scale(zoom) ?? 256 * 2 ** zoom,
      minX: -pad.x,
      minY: -pad.y,
      maxX: size.x + pad.x,
      maxY: size.y + pad.y,
    };
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    for (const fill of this.fills) {
      ctx.beginPath();
      if (!traceRings(ctx, fill.shapes.at(zoom), frame)) continue;
      ctx.fillStyle = fill.colour;
      ctx.fill('evenodd');
    }
    for (const line of this.lines) {
      if (zoom < (line.minZoom ?? 0)) continue;
      ctx.beginPath();
      if (!traceLines(ctx, line.shapes.at(zoom), frame)) continue;
      ctx.strokeStyle = line.colour;
      ctx.lineWidth = line.width;
      ctx.globalAlpha = line.opacity;
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
}

export function addBoundaries(map: L.Map, theme: MapTheme): () => void {
  const land = new BoundaryLayer('blotter-land');
  const lines = new BoundaryLayer('blotter-lines');
  let countiesLoading = false;
  let disposed = false;

  void import('us-atlas/states-10m.json').then((m) => {
    if (disposed) return;
    const atlas = m.default as unknown as Atlas;
    const nation = packParts(partsOf(feature(atlas, atlas.objects.nation)));
    land.addFill(new ZoomedShapes(nation, true), theme.land).addTo(map);
    const states = packParts(partsOf(mesh(atlas, atlas.objects.states, (a, b) => a !== b)));
    const coast = packParts(partsOf(mesh(atlas, atlas.objects.nation)));
    lines
      .addLines({ shapes: new ZoomedShapes(states, false), colour: theme.state, width: 1.1, opacity: 0.9 })
      .addLines({ shapes: new ZoomedShapes(coast, false), colour: theme.coast, width: 0.8, opacity: 0.8 })
      .addTo(map);
  });

  const loadCounties = () => {
    if (countiesLoading || disposed) return;
    countiesLoading = true;
    void import('us-atlas/counties-10m.json').then((m) => {
      if (disposed) return;
      const atlas = m.default as unknown as CountyAtlas;
      // Lines between counties of one state only: state lines are drawn already.
      const inner = mesh(
        atlas,
        atlas.objects.counties,
        (a, b) => a !== b && String(a.id).slice(0, 2) === String(b.id).slice(0, 2),
      );
      const shapes = new ZoomedShapes(packParts(partsOf(inner)), false);
      lines.addLines(
        { shapes, colour: theme.county, width: 0.7, opacity: 0.9, minZoom: COUNTY_MIN_ZOOM },
        true,
      );
    });
  };
  const onZoom = () => {
    if (map.getZoom() >= COUNTY_LOAD_ZOOM) loadCounties();
  };
  map.on('zoomend', onZoom);
  onZoom();

  return () => {
    disposed = true;
    map.off('zoomend', onZoom);
    land.remove();
    lines.remove();
  };
}
