/**
 * The basemap of the current settings: opens the user's file or the online source on first use,
 * re-opens when the setting changes, and answers info and tiles. With `{ kind: 'none' }` (the
 * default) nothing is opened and nothing is fetched: no request leaves the machine.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BasemapInfo, BasemapSetting, TileBytes, TileCoord } from '../../../src-shared/basemap';
import type { FetchLike } from '../api/source';
import { openMbtiles } from './mbtiles';
import { openOnlineTiles } from './onlineTiles';
import { openPmtiles } from './pmtilesFile';
import { openTileCache } from './tileCache';
import { isRaster, VECTOR_UNSUPPORTED } from './tileFormat';
import { BasemapProblem, type SourceInfo, type TileSource } from './tileSource';

export type BasemapDeps = {
  dataDir: string;
  setting: () => BasemapSetting;
  fetch: () => Promise<FetchLike>;
  userAgent: string;
};

type Opened = { key: string; source: TileSource | null; info: SourceInfo | null; problem: string | null };

export const TILE_CACHE_FILE = 'tile-cache.sqlite';

export interface BasemapService {
  info(): Promise<BasemapInfo>;
  /** null: the source has no such tile (or there is no source). */
  tile(coord: TileCoord): Promise<TileBytes | null>;
  close(): Promise<void>;
}

export function createBasemapService(deps: BasemapDeps): BasemapService {
  let current: Promise<Opened> | null = null;
  let currentKey = '';

  async function open(setting: BasemapSetting, key: string): Promise<Opened> {
    if (setting.kind === 'none') return { key, source: null, info: null, problem: null };
    let source: TileSource | null = null;
    try {
      source = await openSource(setting);
      const info = await source.info();
      if (setting.kind === 'file' && !isRaster(info.format)) {
        const problem =
          info.format === 'mvt'
            ? VECTOR_UNSUPPORTED
            : 'This file holds tiles in a format Blotter cannot draw.';
        return { key, source: null, info, problem: (await source.close(), problem) };
      }
      return { key, source, info, problem: null };
    } catch (error) {
      await source?.close().catch(() => undefined);
      if (error instanceof BasemapProblem) return { key, source: null, info: null, problem: error.message };
      throw error;
    }
  }

  async function openSource(setting: Exclude<BasemapSetting, { kind: 'none' }>): Promise<TileSource> {
    if (setting.kind === 'url') {
      return openOnlineTiles({
        template: setting.template,
        attribution: setting.attribution,
        cache: openTileCache(path.join(deps.dataDir, TILE_CACHE_FILE)),
        fetch: deps.fetch,
        userAgent: deps.userAgent,
      });
    }
    if (!existsSync(setting.path)) throw new BasemapProblem(`There is no file at ${setting.path}.`);
    return /\.pmtiles$/i.test(setting.path) ? openPmtiles(setting.path) : openMbtiles(setting.path);
  }

  async function opened(): Promise<{ setting: BasemapSetting; state: Opened }> {
    const setting = deps.setting();
    const key = JSON.stringify(setting);
    if (!current || key !== currentKey) {
      const previous = current;
      currentKey = key;
      current = (async () => {
        const old = await previous?.catch(() => null);
        await old?.source?.close().catch(() => undefined);
        return open(setting, key);
      })();
    }
    return { setting, state: await current };
  }

  return {
    async info() {
      const { setting, state } = await opened();
      const cache = state.source?.stats?.() ?? null;
      return {
        kind: setting.kind,
        status: setting.kind === 'none' ? 'none' : state.problem ? 'error' : 'ready',
        problem: state.problem,
        attribution: state.info?.attribution ?? null,
        name: state.info?.name ?? null,
        format: state.info?.format ?? null,
        minZoom: state.info?.minZoom ?? 0,
        maxZoom: state.info?.maxZoom ?? 19,
        bounds: state.info?.bounds ?? null,
        cache,
      };
    },
    async tile(coord) {
      const { state } = await opened();
      return state.source ? state.source.tile(coord) : null;
    },
    async close() {
      const old = await current?.catch(() => null);
      current = null;
      await old?.source?.close();
    },
  };
}
