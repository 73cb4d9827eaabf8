/**
 * The demo city's map as GeoJSON layers in the Protomaps basemap schema (the layers and properties
 * protomaps-leaflet 5 / @protomaps/basemaps 5 draw): `earth` (land polygons), `water` (the lake
 * `kind: lake`, the river `kind: water`), `roads` (kind, kind_detail, name, min_zoom, sort_key) and
 * `places` (the city `locality`, its hot spots as `neighbourhood`s).
 */
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { shoreWithin, RIVER_HALF_WIDTH_M, type CityMap, type Extent, type LatLon } from './cityMap';
import type { StreetNetwork } from './streets';

export type DemoLayers = Record<'earth' | 'water' | 'roads' | 'places', FeatureCollection>;

/** How far land and water reach beyond the streets (degrees of latitude), so the map has no edge nearby. */
const GROUND_MARGIN = 0.12;
const NEIGHBOURHOODS = ['Synthetic Heights', 'Synthetic Flats', 'Synthetic Park', 'Synthetic Square'];

const feature = (geometry: Geometry, properties: Record<string, string | number>): Feature => ({
  type: 'Feature',
  geometry,
  properties,
});
const collection = (features: Feature[]): FeatureCollection => ({ type: 'FeatureCollection', features });

export function groundExtent(map: CityMap): Extent {
  const dLon = GROUND_MARGIN / Math.cos((map.city.lat * Math.PI) / 180);
  const e = map.extent;
  return {
    minLat: e.minLat - GROUND_MARGIN,
    maxLat: e.maxLat + GROUND_MARGIN,
    minLon: e.minLon - dLon,
    maxLon: e.maxLon + dLon,
  };
}

export function demoLayers(map: CityMap, network: StreetNetwork): DemoLayers {
  const g = groundExtent(map);
  const ground = { ...map, extent: g };
  const shore = shoreWithin(ground).map(([lat, lon]) => [Math.min(lon, g.maxLon), lat] as [number, number]);
  const earthRing: [number, number][] = shore.length
    ? [[g.minLon, g.minLat], ...shore, [g.minLon, g.maxLat], [g.minLon, g.minLat]]
    : [
        [g.minLon, g.minLat],
        [g.maxLon, g.minLat],
        [g.maxLon, g.maxLat],
        [g.minLon, g.maxLat],
        [g.minLon, g.minLat],
      ];
  const earth = [feature({ type: 'Polygon', coordinates: [earthRing] }, { kind: 'earth', min_zoom: 0 })];

  const water: Feature[] = [];
  if (shore.length) {
    const lake = [...shore, [g.maxLon, g.maxLat], [g.maxLon, g.minLat], shore[0] as [number, number]];
    water.push(
      feature(
        { type: 'Polygon', coordinates: [lake] },
        { kind: 'lake', name: 'Lake Michigan', min_zoom: 0, sort_key: 0 },
      ),
    );
  }
  for (const river of map.rivers) {
    water.push(
      feature(
        { type: 'MultiPolygon', coordinates: buffer(river, RIVER_HALF_WIDTH_M) },
        { kind: 'water', kind_detail: 'river', name: 'Chicago River', min_zoom: 9, sort_key: 1 },
      ),
    );
  }

  const roads = network.streets.map((s) =>
    feature(
      { type: 'LineString', coordinates: s.coordinates },
      {
        kind: s.kind,
        kind_detail: s.kind_detail,
        name: s.name,
        min_zoom: s.min_zoom,
        sort_key: s.kind === 'major_road' ? 2 : 1,
      },
    ),
  );

  const places = [
    feature(
      { type: 'Point', coordinates: [map.city.lon, map.city.lat] },
      {
        kind: 'locality',
        name: map.city.name,
        min_zoom: 4,
        population_rank: 14,
      },
    ),
    ...map.city.hotSpots.map((s, i) =>
      feature(
        { type: 'Point', coordinates: [s.lon, s.lat] },
        {
          kind: 'neighbourhood',
          name: NEIGHBOURHOODS[i % NEIGHBOURHOODS.length] as string,
          min_zoom: 12,
          population_rank: 6,
        },
      ),
    ),
  ];
  return {
    earth: collection(earth),
    water: collection(water),
    roads: collection(roads),
    places: collection(places),
  };
}

/** A line widened to a channel: a quad per segment and a square at each joint. */
function buffer(line: readonly LatLon[], halfWidthM: number): [number, number][][][] {
  const polys: [number, number][][][] = [];
  const lat0 = (line[0] as LatLon)[0];
  const kx = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  const ky = 111_320;
  for (let i = 1; i < line.length; i++) {
    const [aLat, aLon] = line[i - 1] as LatLon;
    const [bLat, bLon] = line[i] as LatLon;
    const dx = (bLon - aLon) * kx;
    const dy = (bLat - aLat) * ky;
    const len = Math.hypot(dx, dy) || 1;
    const ox = (-dy / len) * (halfWidthM / kx);
    const oy = (dx / len) * (halfWidthM / ky);
    polys.push([
      [
        [aLon + ox, aLat + oy],
        [bLon + ox, bLat + oy],
        [bLon - ox, bLat - oy],
        [aLon - ox, aLat - oy],
        [aLon + ox, aLat + oy],
      ],
    ]);
  }
  for (const [lat, lon] of line) {
    const hx = halfWidthM / kx;
    const hy = halfWidthM / ky;
    polys.push([
      [
        [lon - hx, lat - hy],
        [lon + hx, lat - hy],
        [lon + hx, lat + hy],
        [lon - hx, lat + hy],
        [lon - hx, lat - hy],
      ],
    ]);
  }
  return polys;
}
