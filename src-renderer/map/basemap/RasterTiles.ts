/**
 * The user's street layer: raster tiles the engine reads from their .mbtiles/.pmtiles file or
 * fetches from their tile URL (one call per tile, through the bridge), shown as <img> elements
 * with blob: URLs. The page itself never requests another host.
 */
import * as L from 'leaflet';
import type { BasemapInfo } from '../../../src-shared/basemap';
import type { Client } from '../../bridge/client';

export class RasterTiles extends L.GridLayer {
  constructor(
    private readonly client: Client,
    info: BasemapInfo,
  ) {
    super({
      pane: 'blotter-tiles',
      minNativeZoom: info.minZoom,
      maxNativeZoom: info.maxZoom,
      ...(info.bounds
        ? { bounds: L.latLngBounds([info.bounds[1], info.bounds[0]], [info.bounds[3], info.bounds[2]]) }
        : {}),
      keepBuffer: 1,
    });
    this.on('tileunload', (e: L.TileEvent) => {
      const url = (e.tile as HTMLImageElement).dataset.blob;
      if (url) URL.revokeObjectURL(url);
    });
  }

  protected override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const img = document.createElement('img');
    img.alt = '';
    img.setAttribute('role', 'presentation');
    this.client.call('getBasemapTile', { z: coords.z, x: coords.x, y: coords.y }).then(
      (tile) => {
        const url = URL.createObjectURL(
          new Blob([tile.bytes as Uint8Array<ArrayBuffer>], { type: tile.contentType }),
        );
        img.dataset.blob = url;
        img.onload = () => done(undefined, img);
        img.onerror = () => done(new Error('A basemap tile could not be decoded.'), img);
        img.src = url;
      },
      () => done(undefined, img), // no tile here (or offline with nothing cached): leave it empty
    );
    return img;
  }
}

export { attributionText } from './attribution';
