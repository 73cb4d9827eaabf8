/**
 * The report's hot spot map: the significant Getis-Ord Gi* cells in the Analysis view's bin colours
 * (±3/±2/±1: 99/95/90 % confidence after FDR), drawn over the same box, scale and streets as the
 * report's map, with the area outlines, the view's legend and a line of the analysis's parameters.
 * Cells that are not significant are left clear so the streets show through; the legend counts them.
 */
import type { ReportModel } from '../../src-shared/exports';
import type { ReportHotSpots } from '../../src-shared/reportAnalyses';
import type { StreetsImage } from '../map/basemap/staticStreets';
import { HotSpotLegend } from '../analysis/Legends';
import { binColour } from '../analysis/palette';
import { count } from '../text/count';
import { mapBox, projection, STATIC_MAP_SIZE } from './StaticMap';
import styles from './report.module.css';

const { width: W, height: H } = STATIC_MAP_SIZE;

/** "Square grid of 250 m cells, distance band 500 m, UTM EPSG:32616; 2,480 cells …". */
export function hotSpotParametersText(p: Record<string, unknown>): string {
  const n = (key: string) => (typeof p[key] === 'number' ? (p[key] as number) : null);
  const metres = (v: number | null) => (v === null ? '?' : `${count(Math.round(v))} m`);
  const grid = p.grid === 'hexagon' ? 'Hexagon grid' : 'Square grid';
  const parts = [
    `${grid} of ${metres(n('cell_size_m'))} cells (${p.grid === 'hexagon' ? 'flat to flat' : 'side'})`,
    `distance band ${metres(n('distance_band_m'))} (binary weights, the cell itself included)`,
    `UTM EPSG:${n('utm_epsg') ?? '?'}`,
    `${count(n('cells') ?? 0)} cells computed, ${count(n('masked_cells') ?? 0)} outside the synced areas left out`,
    `${count(n('incidents') ?? 0)} incidents`,
    'p corrected for false discoveries (Benjamini–Hochberg)',
  ];
  return `${parts.join('; ')}.`;
}

export function HotSpotMap({
  model,
  hotSpots,
  streets = null,
}: {
  model: ReportModel;
  hotSpots: ReportHotSpots;
  streets?: StreetsImage | null;
}) {
  const box = mapBox(model.map);
  const p = box ? projection(box) : null;
  const ring = (r: [number, number][]) =>
    p ? r.map(([lat, lon]) => `${p.x(lon).toFixed(1)},${p.y(lat).toFixed(1)}`).join(' ') : '';
  return (
    <figure className={styles.map} data-testid="report-hotspots">
      {p ? (
        <svg
          className={styles.staticMap}
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label="Map of the hot spots and cold spots"
        >
          <rect x="0" y="0" width={W} height={H} className={styles.staticMapBg} />
          {streets ? <image href={streets.href} x="0" y="0" width={W} height={H} /> : null}
          {model.map.outlines.map((r, k) => (
            <polygon key={k} className={styles.staticMapArea} points={ring(r)} />
          ))}
          {hotSpots.cells.map((c, k) => (
            <polygon
              key={k}
              className="hotspot-cell"
              points={ring(c.ring)}
              fill={binColour(c.bin)}
              fillOpacity="0.8"
              stroke={binColour(c.bin)}
              strokeWidth="0.5"
              data-bin={c.bin}
            />
          ))}
          <text x={W - 16} y={26} textAnchor="end" className={styles.staticMapNorth}>
            N ↑
          </text>
        </svg>
      ) : (
        <p className="muted">No incidents or areas to map.</p>
      )}
      <div className={styles.hotSpotLegend}>
        <HotSpotLegend counts={hotSpots.bins as Record<number, number>} />
      </div>
      <figcaption className="muted" data-testid="report-hotspot-parameters">
        {hotSpotParametersText(hotSpots.parameters)}
      </figcaption>
    </figure>
  );
}
