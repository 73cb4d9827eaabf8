/**
 * The demo city's ground: the extent its streets cover, and its water — for Chicago, Lake Michigan
 * (east of a shoreline traced from the real one, coarsely) and the Chicago River (main stem, North
 * and South Branches) as a 70 m wide channel. Other cities have no water here. Shapes are
 * approximate: they exist so demo incidents stay on land and the map shows the lake where it is.
 */
import { BLOCK_LAT, BLOCK_LON } from '../data/addresses';
import { CITIES, type CityDef } from '../data/cities';

/** [lat, lon] */
export type LatLon = readonly [number, number];
export type Extent = { minLat: number; maxLat: number; minLon: number; maxLon: number };

/** Chicago's lakefront, south to north. */
const CHICAGO_SHORE: LatLon[] = [
  [41.6, -87.52],
  [41.7, -87.525],
  [41.74, -87.54],
  [41.76, -87.553],
  [41.79, -87.578],
  [41.81, -87.587],
  [41.84, -87.607],
  [41.86, -87.611],
  [41.88, -87.613],
  [41.9, -87.62],
  [41.92, -87.631],
  [41.95, -87.641],
  [41.98, -87.652],
  [42.0, -87.662],
  [42.05, -87.673],
  [42.1, -87.685],
];

const CHICAGO_RIVER: LatLon[][] = [
  [
    [41.8887, -87.6124],
    [41.8869, -87.6245],
    [41.8868, -87.6375],
  ],
  [
    [41.8868, -87.6375],
    [41.8925, -87.6395],
    [41.9015, -87.6465],
    [41.912, -87.6535],
    [41.93, -87.664],
    [41.95, -87.677],
  ],
  [
    [41.8868, -87.6375],
    [41.876, -87.6378],
    [41.866, -87.6368],
    [41.856, -87.6378],
    [41.848, -87.6455],
    [41.843, -87.66],
    [41.836, -87.68],
  ],
];

export const RIVER_HALF_WIDTH_M = 35;
const M_PER_DEG_LAT = 111_320;

export type CityMap = {
  cityIndex: number;
  city: CityDef;
  extent: Extent;
  /** The shoreline (south to north) with the lake to its east, if the city has one. */
  shore: LatLon[] | null;
  rivers: LatLon[][];
  /** Centre block indices: block numbers count from here. */
  centre: { ix: number; iy: number };
  inLake(lat: number, lon: number): boolean;
  inWater(lat: number, lon: number): boolean;
  inExtent(lat: number, lon: number): boolean;
};

/** Longitude of the shoreline at a latitude (ends held flat). */
function shoreLonAt(shore: readonly LatLon[], lat: number): number {
  const first = shore[0] as LatLon;
  const last = shore[shore.length - 1] as LatLon;
  if (lat <= first[0]) return first[1];
  if (lat >= last[0]) return last[1];
  for (let i = 1; i < shore.length; i++) {
    const a = shore[i - 1] as LatLon;
    const b = shore[i] as LatLon;
    if (lat <= b[0]) return a[1] + ((lat - a[0]) / (b[0] - a[0])) * (b[1] - a[1]);
  }
  return last[1];
}

/** Metres from a point to a polyline (local equirectangular; fine at city scale). */
export function metresToLine(lat: number, lon: number, line: readonly LatLon[]): number {
  const kx = M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
  let best = Infinity;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1] as LatLon;
    const b = line[i] as LatLon;
    const ax = (a[1] - lon) * kx;
    const ay = (a[0] - lat) * M_PER_DEG_LAT;
    const bx = (b[1] - lon) * kx;
    const by = (b[0] - lat) * M_PER_DEG_LAT;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best;
}

export function cityMap(cityIndex: number): CityMap {
  const city = CITIES[cityIndex];
  if (!city) throw new RangeError(`no city ${cityIndex}`);
  const dLat = Math.min(0.12, 2.5 * city.spreadDeg);
  const dLon = dLat / Math.cos((city.lat * Math.PI) / 180);
  const extent = {
    minLat: city.lat - dLat,
    maxLat: city.lat + dLat,
    minLon: city.lon - dLon,
    maxLon: city.lon + dLon,
  };
  const chicago = city.name === 'Chicago';
  const shore = chicago ? CHICAGO_SHORE : null;
  const rivers = chicago ? CHICAGO_RIVER : [];
  const inLake = (lat: number, lon: number) => !!shore && lon >= shoreLonAt(shore, lat);
  return {
    cityIndex,
    city,
    extent,
    shore,
    rivers,
    centre: { ix: Math.round(city.lon / BLOCK_LON), iy: Math.round(city.lat / BLOCK_LAT) },
    inLake,
    inWater: (lat, lon) =>
      inLake(lat, lon) || rivers.some((r) => metresToLine(lat, lon, r) <= RIVER_HALF_WIDTH_M),
    inExtent: (lat, lon) =>
      lat >= extent.minLat && lat <= extent.maxLat && lon >= extent.minLon && lon <= extent.maxLon,
  };
}

/** The shoreline clipped to the extent's latitudes, as points (south to north). */
export function shoreWithin(map: CityMap): LatLon[] {
  if (!map.shore) return [];
  const { minLat, maxLat } = map.extent;
  const inner = map.shore.filter(([lat]) => lat > minLat && lat < maxLat);
  return [[minLat, shoreLonAt(map.shore, minLat)], ...inner, [maxLat, shoreLonAt(map.shore, maxLat)]];
}
