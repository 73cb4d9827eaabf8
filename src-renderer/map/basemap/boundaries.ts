/**
 * Bundled US boundaries (us-atlas, Census cartographic boundaries at 1:10m, unprojected lon/lat):
 * land and state lines always, county lines from zoom 7. Canvas vector layers, no network; the
 * county file is a separate chunk loaded the first time a user zooms in that far.
 */
import * as L from 'leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { MapTheme } from './theme';

export const COUNTY_MIN_ZOOM = 7;

/** GeoJSON options with a renderer: Leaflet passes them on to each path (its types omit it). */
const onCanvas = (renderer: L.Renderer, style: L.PathOptions): L.GeoJSONOptions =>
  ({ renderer, interactive: false, style }) as L.GeoJSONOptions;

type Atlas = Topology<{ states: GeometryCollection; nation: GeometryCollection }>;
type CountyAtlas = Topology<{ counties: GeometryCollection }>;

export function addBoundaries(map: L.Map, theme: MapTheme): () => void {
  const land = L.canvas({ pane: 'blotter-land', padding: 0.2 });
  const lines = L.canvas({ pane: 'blotter-lines', padding: 0.2 });
  const layers: L.Layer[] = [];
  let counties: L.Layer | null = null;
  let countiesLoading = false;
  let disposed = false;

  const add = (layer: L.Layer) => {
    if (disposed) return;
    layers.push(layer);
    layer.addTo(map);
  };

  void import('us-atlas/states-10m.json').then((m) => {
    const atlas = m.default as unknown as Atlas;
    add(
      L.geoJSON(
        feature(atlas, atlas.objects.nation),
        onCanvas(land, { stroke: false, fillColor: theme.land, fillOpacity: 1 }),
      ),
    );
    const stateLines = mesh(atlas, atlas.objects.states, (a, b) => a !== b);
    add(L.geoJSON(stateLines, onCanvas(lines, { color: theme.state, weight: 1.1, opacity: 0.9 })));
    const coast = mesh(atlas, atlas.objects.nation);
    add(L.geoJSON(coast, onCanvas(lines, { color: theme.coast, weight: 0.8, opacity: 0.8 })));
  });

  const showCounties = () => {
    const wanted = map.getZoom() >= COUNTY_MIN_ZOOM;
    if (wanted && !counties && !countiesLoading) {
      countiesLoading = true;
      void import('us-atlas/counties-10m.json').then((m) => {
        const atlas = m.default as unknown as CountyAtlas;
        // Lines between counties of one state only: state lines are drawn already.
        const inner = mesh(
          atlas,
          atlas.objects.counties,
          (a, b) => a !== b && String(a.id).slice(0, 2) === String(b.id).slice(0, 2),
        );
        counties = L.geoJSON(inner, onCanvas(lines, { color: theme.county, weight: 0.7, opacity: 0.9 }));
        if (!disposed && map.getZoom() >= COUNTY_MIN_ZOOM) counties.addTo(map);
      });
    } else if (counties) {
      if (wanted && !map.hasLayer(counties)) counties.addTo(map);
      if (!wanted && map.hasLayer(counties)) counties.remove();
    }
  };
  map.on('zoomend', showCounties);
  showCounties();

  return () => {
    disposed = true;
    map.off('zoomend', showCounties);
    for (const layer of layers) layer.remove();
    counties?.remove();
  };
}
