/**
 * The basemap of the current settings: opens the user's file or the online source on first use,
 * re-opens when the setting changes, and answers info and tiles. With `{ kind: 'none' }` (the
 * default) nothing is opened and nothing is fetched: no request leaves the machine.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type {
  BasemapCoverage,
  BasemapInfo,
  BasemapProgressFields,
  BasemapSetting,
  TileBytes,
  TileCoord,
} from '../../../src-shared/basemap';
import type { FetchLike } from '../api/source';
import type { AreaBox } from './areaBoxes';
import { covers } from './coverage';
import { areasFileOf, createBasemapDownloads, type BasemapDownloads } from './download';
import { openLocalArchive } from './extract/localArchive';
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
  boxes?: () => AreaBox[];
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
  /** Which areas the extract covers and whether to offer extending it (local files only). */
  coverage(): Promise<BasemapCoverage>;
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
    async coverage() {
      const source = deps.source?.() ?? null;
      const areas = (deps.boxes?.() ?? []).map((box, i) => ({ areaId: box.id ?? i + 1, box }));
      const stat = existsSync(areasFile) ? statSync(areasFile) : null;
      const archive = stat ? await openLocalArchive(areasFile) : null;
      if (!stat || !archive) {
        return {
          source,
          extract: null,
          areas: areas.map((a) => ({ areaId: a.areaId, covered: false })),
          offerExtend: false,
        };
      }
      try {
        const h = archive.header;
        // An extract written before its record: its bounds (the margin-grown boxes' union) stand in.
        const extent = archive.record ?? {
          maxZoom: h.maxZoom,
          boxes: [{ minLon: h.bounds[0], minLat: h.bounds[1], maxLon: h.bounds[2], maxLat: h.bounds[3] }],
        };
        const covered = areas.map((a) => ({ areaId: a.areaId, covered: covers(extent, a.box) }));
        const drawn = deps.setting().kind === 'none';
        return {
          source,
          extract: { maxZoom: extent.maxZoom, builtAt: Math.round(stat.mtimeMs), bytes: stat.size },
          areas: covered,
          offerExtend: !!source && drawn && covered.some((a) => !a.covered),
        };
      } finally {
        await archive.close();
      }
    },
    async close() {
      await downloads.close();
      const old = await current?.catch(() => null);
      current = null;
      await old?.source?.close();
    },
  };
}
