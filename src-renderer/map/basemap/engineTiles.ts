/** Vector tile bytes from the engine (getBasemapTile), in the shape protomaps-leaflet reads a PMTiles archive. */
import type { Client } from '../../bridge/client';

/** The subset of a PMTiles archive protomaps-leaflet's PmtilesSource asks of its `url` object. */
export type ZxySource = {
  getZxy(z: number, x: number, y: number, signal?: AbortSignal): Promise<{ data: ArrayBuffer } | undefined>;
};

/** The engine's tiles, each asked once while recent (both layers read the same bytes). */
export function engineTileSource(client: Client, keep = 256): ZxySource {
  const recent = new Map<string, Promise<{ data: ArrayBuffer } | undefined>>();
  return {
    getZxy(z, x, y) {
      const key = `${z}/${x}/${y}`;
      let hit = recent.get(key);
      if (hit) {
        recent.delete(key);
        recent.set(key, hit);
        return hit;
      }
      hit = client.call('getBasemapTile', { z, x, y }).then(
        (t) => ({ data: t.bytes.slice().buffer as ArrayBuffer }),
        () => undefined, // no tile here: nothing to draw
      );
      recent.set(key, hit);
      if (recent.size > keep) recent.delete(recent.keys().next().value as string);
      return hit;
    },
  };
}
