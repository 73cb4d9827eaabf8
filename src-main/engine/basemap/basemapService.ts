/**
 * The basemap of the current settings: opens the user's file or the online source on first use,
 * re-opens when the setting changes, and answers info and tiles. With `{ kind: 'none' }` (the
 * default) nothing is opened and nothing is fetched: no request leaves the machine.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
  BasemapInfo,
  BasemapProgressFields,
  BasemapSetting,
  TileBytes,
  TileCoord,
} from '../../../src-shared/basemap';
import type { Box } from '../../../src-shared/geo/bbox';
import type { FetchLike } from '../api/source';
import { areasFileOf, createBasemapDownloads, type BasemapDownloads } from './download';
import { openMbtiles } from './mbtiles';
import { openOnlineTiles } from './onlineTiles';
import { openPmtiles } from './pmtilesFile';
import { openTileCache } from './tileCache';
import { isRaster } from './tileFormat';
import { BasemapProblem, type SourceInfo, type TileSource } from './tileSource';

export type BasemapDeps = {
  dataDir: string;
  setting: () => BasemapSetting;
  fetch: () => Promise<FetchLike>;
  userAgent: string;
  /** The areas' boxes and the stored source URL, for the offline extract (download.ts). */
  boxes?: () => Box[];
  source?: () => string | undefined;
  emit?: (progress: BasemapProgressFields) => void;
};

type Opened = {
  key: string;
  kind: BasemapInfo['kind'];
  source: TileSource | null;
  info: SourceInfo | null;
  problem: string | null;
};

export const TILE_CACHE_FILE = 'tile-cache.sqlite';

export interface BasemapService {
  info(): Promise<BasemapInfo>;
  /** null: the source has no such tile (or there is no source). */
  tile(coord: TileCoord): Promise<TileBytes | null>;
  /** The areas' offline extract: estimate, start, cancel (download.ts). */
  readonly downloads: BasemapDownloads;
  close(): Promise<void>;
}

export function createBasemapService(deps: BasemapDeps): BasemapService {
  let current: Promise<Opened> | null = null;
  let currentKey = '';
  /** Bumped when the areas' extract is (re)written, so the next call re-opens it. */
  let landed = 0;
  const areasFile = areasFileOf(deps.dataDir);

  const downloads = createBasemapDownloads({
    dataDir: deps.dataDir,
    boxes: deps.boxes ?? (() => []),
    source: deps.source ?? (() => undefined),
    fetch: deps.fetch,
    emit: deps.emit ?? (() => undefined),
    onLanded: () => {
      landed++;
    },
  });

  /** The setting, or the areas' extract when no file or URL is set and the extract exists. */
  function effective(setting: BasemapSetting): { kind: BasemapInfo['kind']; setting: BasemapSetting } {
    if (setting.kind === 'none' && existsSync(areasFile)) {
      return { kind: 'extract', setting: { kind: 'file', path: areasFile } };
    }
    return { kind: setting.kind, setting };
  }

  async function open(chosen: BasemapSetting, key: string): Promise<Opened> {
    const { kind, setting } = effective(chosen);
    if (setting.kind === 'none') return { key, kind, source: null, info: null, problem: null };
    let source: TileSource | null = null;
    try {
      source = await openSource(setting);
      const info = await source.info();
      if (setting.kind === 'file' && !isRaster(info.format) && info.format !== 'mvt') {
        const problem = 'This file holds tiles in a format Blotter cannot draw.';
        return { key, kind, source: null, info, problem: (await source.close(), problem) };
      }
      return { key, kind, source, info, problem: null };
    } catch (error) {
      await source?.close().catch(() => undefined);
      if (error instanceof BasemapProblem)
        return { key, kind, source: null, info: null, problem: error.message };
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
    const key = `${JSON.stringify(setting)}#${landed}`;
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
      const { state } = await opened();
      const cache = state.source?.stats?.() ?? null;
      return {
        kind: state.kind,
        status: state.kind === 'none' ? 'none' : state.problem ? 'error' : 'ready',
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
    downloads,
    async close() {
      await downloads.close();
      const old = await current?.catch(() => null);
      current = null;
      await old?.source?.close();
    },
  };
}
