/**
 * The report's map: area outlines with their names, and the incidents as symbols in their type
 * colours large enough to read on paper (a white ring parts overlapping ones), drawn as SVG (no
 * tiles, so it prints offline and crisp), with a scale bar in miles and a north marker. The
 * projection is equirectangular around the middle latitude, true enough at city scale.
 */
import type { ReportModel } from '../../src-shared/exports';
import { MILES_PER_DEGREE_LAT, RAD, type Box } from '../../src-shared/geo';
import type { StreetsImage } from '../map/basemap/staticStreets';
import { colourOf } from '../map/palette';
import styles from './report.module.css';

const W = 700;
const H = 300;
const PAD = 16;

export function mapBox(map: ReportModel['map']): Box | null {
  const box = { minLat: Infinity, maxLat: -Infinity, minLon: Infinity, maxLon: -Infinity };
  const add = (lat: number, lon: number) => {
    box.minLat = Math.min(box.minLat, lat);
    box.maxLat = Math.max(box.maxLat, lat);
    box.minLon = Math.min(box.minLon, lon);
    box.maxLon = Math.max(box.maxLon, lon);
  };
  map.outlines.forEach((ring) => ring.forEach(([lat, lon]) => add(lat, lon)));
  map.points.lat.forEach((lat, k) => add(lat, map.points.lon[k] as number));
  return Number.isFinite(box.minLat) ? box : null;
}

/** A projection of `box` into the drawing, keeping miles square. */
export function projection(box: Box) {
  const k = Math.cos(((box.minLat + box.maxLat) / 2) * RAD);
  const spanX = Math.max(1e-6, (box.maxLon - box.minLon) * k);
  const spanY = Math.max(1e-6, box.maxLat - box.minLat);
  const scale = Math.min((W - 2 * PAD) / spanX, (H - 2 * PAD) / spanY);
  const offX = (W - spanX * scale) / 2;
  const offY = (H - spanY * scale) / 2;
  return {
    x: (lon: number) => offX + (lon - box.minLon) * k * scale,
    y: (lat: number) => offY + (box.maxLat - lat) * scale,
    /** Pixels per mile (a degree of latitude is ~69 miles). */
    pxPerMile: scale / MILES_PER_DEGREE_LAT,
  };
}

const niceMiles = (max: number): number =>
  [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50].filter((m) => m <= max).pop() ?? 0.1;

export const STATIC_MAP_SIZE = { width: W, height: H };
/** An incident's symbol: a disc of this radius (in the map's 700-wide units: ~1.3 mm on paper). */
export const SYMBOL_RADIUS = 3.5;

export function StaticMap({
  map,
  types,
  streets = null,
  labels = [],
}: {
  map: ReportModel['map'];
  types: string[];
  /** The outlines' names, written inside each outline's top. */
  labels?: { name: string; at: [number, number] }[];
  /** The streets under the map, drawn to the same box and scale (map/basemap/staticStreets.ts). */
  streets?: StreetsImage | null;
}) {
  const box = mapBox(map);
  if (!box) return <p className="muted">No incidents or areas to map.</p>;
  const p = projection(box);
  const miles = niceMiles((W * 0.25) / p.pxPerMile);
  return (
    <svg
      className={styles.staticMap}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="Map of the area and the incidents"
      data-testid="report-map"
    >
      <rect x="0" y="0" width={W} height={H} className={styles.staticMapBg} />
      {streets ? (
        <image href={streets.href} x="0" y="0" width={W} height={H} data-testid="report-streets" />
      ) : null}
      {map.outlines.map((ring, k) => (
        <polygon
          key={k}
          className={styles.staticMapArea}
          points={ring.map(([lat, lon]) => `${p.x(lon).toFixed(1)},${p.y(lat).toFixed(1)}`).join(' ')}
        />
      ))}
      {map.points.lat.map((lat, k) => (
        <circle
          key={k}
          cx={p.x(map.points.lon[k] as number).toFixed(1)}
          cy={p.y(lat).toFixed(1)}
          r={SYMBOL_RADIUS}
          fill={colourOf(types[map.points.type[k] as number] ?? '')}
          stroke="#ffffff"
          strokeWidth="0.8"
        />
      ))}
      {labels.map((l) => (
        <text
          key={l.name}
          x={p.x(l.at[1]).toFixed(1)}
          y={(p.y(l.at[0]) + 15).toFixed(1)}
          textAnchor="middle"
          className={styles.staticMapLabel}
        >
          {l.name}
        </text>
      ))}
      <g className={styles.staticMapScale} transform={`translate(${PAD}, ${H - PAD})`}>
        <line x1="0" y1="0" x2={miles * p.pxPerMile} y2="0" />
        <text x="0" y="-6">
          {miles} mi
        </text>
      </g>
      <text x={W - PAD} y={PAD + 10} textAnchor="end" className={styles.staticMapNorth}>
        N ↑
      </text>
      {streets?.attribution ? (
        <text x={W - PAD} y={H - PAD / 2} textAnchor="end" className={styles.staticMapNorth} fontSize="9">
          {streets.attribution}
        </text>
      ) : null}
    </svg>
  );
}
