/**
 * The streets under the printed report's map: the vector basemap drawn once with protomaps-leaflet's
 * Static renderer into an image of the report map's size and scale (its projection keeps miles
 * square around the middle latitude; at city scale Web Mercator at the same centre and zoom lines
 * up with it to well under a pixel). Light flavour always: paper is white.
 */
import { Static } from 'protomaps-leaflet';
import type { BasemapInfo } from '../../../src-shared/basemap';
import type { Box } from '../../../src-shared/geo';
import type { Client } from '../../bridge/client';
import { engineTileSource, type ZxySource } from './engineTiles';
import { flavorStyle, type Flavor } from './flavor';

export type StreetsImage = { href: string; attribution: string };

/**
 * A PNG data URL of the streets over `box`, drawn `width` × `height` at `pxPerDegreeLat` (the
 * report map's scale), or null when there is no vector basemap.
 */
export async function drawStreets(
  client: Client,
  info: BasemapInfo,
  box: Box,
  size: { width: number; height: number; pxPerDegreeLat: number },
): Promise<string | null> {
  if (info.status !== 'ready' || info.format !== 'mvt') return null;
  const midLat = (box.minLat + box.maxLat) / 2;
  const k = Math.cos((midLat * Math.PI) / 180);
  // Web Mercator: 256·2^z px per 360° of longitude; the report draws k·scale px per degree.
  const zoom = Math.log2((360 * k * size.pxPerDegreeLat) / 256);
  const density = 2; // print crisp
  const canvas = document.createElement('canvas');
  canvas.width = size.width * density;
  canvas.height = size.height * density;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.scale(density, density);
  const center = { lon: (box.minLon + box.maxLon) / 2, lat: midLat };
  await paintStreets(engineTileSource(client), info.maxZoom, ctx, { ...size, center, zoom }, 'light');
  return canvas.toDataURL('image/png');
}

/**
 * Tile bytes to canvas: the streets, water, land and names of `source` around `view.center` at
 * `view.zoom` (Web Mercator, 256 px per tile at zoom 0), painted with protomaps-leaflet's Static
 * renderer in the flavour's rules. Resolves when painted.
 */
export async function paintStreets(
  source: ZxySource,
  maxDataZoom: number,
  ctx: CanvasRenderingContext2D,
  view: { width: number; height: number; center: { lon: number; lat: number }; zoom: number },
  flavor: Flavor,
): Promise<void> {
  const style = flavorStyle(flavor);
  const renderer = new Static({
    url: source as never,
    maxDataZoom,
    paintRules: style.paintRules,
    labelRules: style.labelRules,
    backgroundColor: style.background,
  });
  const center = { x: view.center.lon, y: view.center.lat };
  await renderer.drawContext(ctx, view.width, view.height, center as never, view.zoom);
}
