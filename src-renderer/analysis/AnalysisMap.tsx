/**
 * The analysis layer on a map of its own (the offline basemap under it): the hot spot grid (every
 * computed cell; masked cells are not in the answer, so never drawn, never "cold"), the kernel
 * density raster as an image in lon/lat, or the repeat locations as circles. Clicking a cell or a
 * place drills down (onCell, with the cell's name / onPlace). The layer is SVG so each cell is an element (testable,
 * focusable by Leaflet's keyboard handling); the map fits the layer once per answer.
 */
import * as L from 'leaflet';
import { useEffect, useMemo } from 'react';
import type { GridCollection, KdeRaster, RepeatGroupOut } from '../../src-shared/analysis';
import { mapTheme } from '../map/basemap/theme';
import { useBasemap } from '../map/basemap/useBasemap';
import { useLeafletMap } from '../map/useLeafletMap';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { binColour, decodeFloats, kdePixels } from './palette';
import styles from './analysis.module.css';

export type AnalysisLayer =
  | { kind: 'hotspots'; geojson: GridCollection }
  | { kind: 'kde'; raster: KdeRaster; max: number }
  | { kind: 'repeats'; groups: RepeatGroupOut[] };

type Props = {
  layer: AnalysisLayer;
  /** A Gi* cell clicked: its ring [lat, lon] and its name ("Gi* cell 24,25": row, column). */
  onCell?: (ring: [number, number][], label: string) => void;
  onPlace?: (group: RepeatGroupOut) => void;
};

export function AnalysisMap({ layer, onCell, onPlace }: Props) {
  const theme = useMemo(mapTheme, []);
  const { client } = useWorkspace();
  const { ref, map } = useLeafletMap(theme.water);
  useBasemap(map, client, theme, { labels: true, streets: true });

  useEffect(() => {
    if (!map) return;
    const drawn = drawLayer(layer, onCell, onPlace);
    drawn.addTo(map);
    const bounds =
      drawn instanceof L.ImageOverlay ? drawn.getBounds() : (drawn as L.FeatureGroup).getBounds();
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [16, 16], animate: false });
    return () => void drawn.remove();
  }, [map, layer, onCell, onPlace]);

  const cells = layer.kind === 'hotspots' ? layer.geojson.features.length : undefined;
  return (
    <div
      ref={ref}
      className={styles.map}
      data-testid="analysis-map"
      data-layer={layer.kind}
      data-cells={cells}
      aria-label={`Map of the ${layer.kind === 'kde' ? 'kernel density' : layer.kind === 'hotspots' ? 'hot spot grid' : 'repeat locations'}`}
      role="region"
    />
  );
}

function drawLayer(
  layer: AnalysisLayer,
  onCell?: (ring: [number, number][], label: string) => void,
  onPlace?: (group: RepeatGroupOut) => void,
): L.Layer {
  const renderer = L.svg({ pane: 'overlayPane' });
  if (layer.kind === 'hotspots') {
    return L.geoJSON(layer.geojson as unknown as GeoJSON.FeatureCollection, {
      style: (f) => {
        const bin = Number(f?.properties?.bin ?? 0);
        return {
          renderer,
          className: `hotspot-cell hotspot-bin${bin < 0 ? 'm' : ''}${Math.abs(bin)}`,
          color: binColour(bin),
          weight: bin === 0 ? 0.3 : 0.6,
          fillColor: binColour(bin),
          fillOpacity: bin === 0 ? 0.08 : 0.6,
        };
      },
      onEachFeature: (f, l) => {
        const p = f.properties as Record<string, number>;
        const label = `Gi* cell ${p.row},${p.col}`;
        l.bindTooltip(
          `${label} (row ${p.row}, column ${p.col}): ${p.count} incidents · z ${Number(p.gi_z).toFixed(2)} · p (FDR) ${Number(p.p_fdr).toPrecision(2)}`,
        );
        // The count on the element too, so a test (or a screen reader's inspection) can find the busiest cell.
        l.on('add', () => {
          const el = (l as L.Path).getElement();
          el?.setAttribute('data-count', String(p.count));
          el?.setAttribute('data-cell', `${p.row},${p.col}`);
        });
        l.on('click', () => {
          const ring = (f.geometry as GeoJSON.Polygon).coordinates[0] ?? [];
          onCell?.(
            ring.slice(0, -1).map(([lon, lat]) => [lat as number, lon as number]),
            label,
          );
        });
      },
    });
  }
  if (layer.kind === 'kde') {
    const r = layer.raster;
    const canvas = document.createElement('canvas');
    canvas.width = r.width;
    canvas.height = r.height;
    const ctx = canvas.getContext('2d');
    if (ctx)
      ctx.putImageData(
        new ImageData(kdePixels(decodeFloats(r.dataBase64), layer.max), r.width, r.height),
        0,
        0,
      );
    const south = r.north - r.height * r.yRes;
    const east = r.west + r.width * r.xRes;
    return L.imageOverlay(
      canvas.toDataURL(),
      [
        [south, r.west],
        [r.north, east],
      ],
      { className: 'kde-raster', opacity: 0.85 },
    );
  }
  return L.featureGroup(
    layer.groups.map((g) =>
      L.circleMarker([g.lat, g.lon], {
        renderer,
        className: 'repeat-place',
        radius: Math.min(18, 4 + Math.sqrt(g.count) * 2),
        color: '#6a1b9a',
        fillColor: '#ab47bc',
        fillOpacity: 0.6,
        weight: 1,
      })
        .bindTooltip(`${g.address}: ${g.count} incidents`)
        .on('click', () => onPlace?.(g)),
    ),
  );
}
