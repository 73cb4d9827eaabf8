/**
 * An MBTiles file (SQLite: `metadata` name/value rows and `tiles` in TMS numbering), opened
 * read-only. TMS counts rows from the south, so XYZ y becomes 2^z − 1 − y.
 */
import Database from 'better-sqlite3';
import type { TileBytes, TileCoord } from '../../../src-shared/basemap';
import { CONTENT_TYPES, formatFromName, sniffFormat, type TileFormat } from './tileFormat';
import { BasemapProblem, clampZoom, type SourceInfo, type TileSource } from './tileSource';

type Row = { tile_data: Buffer };

export function openMbtiles(file: string): TileSource {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM tiles LIMIT 1').get();
  } catch (error) {
    throw new BasemapProblem(`Cannot read ${file} as an MBTiles file: ${(error as Error).message}.`);
  }
  const selectTile = db.prepare<[number, number, number], Row>(
    'SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?',
  );
  let format: TileFormat | null = null;

  function readInfo(): SourceInfo {
    const meta = new Map<string, string>();
    try {
      const rows = db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: unknown }[];
      for (const row of rows) meta.set(String(row.name).toLowerCase(), String(row.value));
    } catch {
      // metadata is optional in practice; the tiles speak for themselves
    }
    format = formatFromName(meta.get('format'));
    if (!format) {
      const first = db.prepare('SELECT tile_data FROM tiles LIMIT 1').get() as Row | undefined;
      format = first ? sniffFormat(first.tile_data) : 'unknown';
    }
    const zooms = db.prepare('SELECT min(zoom_level) AS lo, max(zoom_level) AS hi FROM tiles').get() as {
      lo: number | null;
      hi: number | null;
    };
    const num = (key: string, fallback: number) => {
      const v = Number(meta.get(key));
      return Number.isFinite(v) && meta.has(key) ? v : fallback;
    };
    const bounds = (meta.get('bounds') ?? '').split(',').map(Number);
    return {
      name: meta.get('name') ?? null,
      attribution: meta.get('attribution') ?? null,
      format,
      minZoom: clampZoom(num('minzoom', zooms.lo ?? 0)),
      maxZoom: clampZoom(num('maxzoom', zooms.hi ?? 0)),
      bounds:
        bounds.length === 4 && bounds.every(Number.isFinite)
          ? (bounds as [number, number, number, number])
          : null,
    };
  }

  return {
    info: async () => readInfo(),
    async tile({ z, x, y }: TileCoord): Promise<TileBytes | null> {
      const row = selectTile.get(z, x, 2 ** z - 1 - y);
      if (!row) return null;
      const bytes = new Uint8Array(row.tile_data.buffer, row.tile_data.byteOffset, row.tile_data.byteLength);
      const kind = format && format !== 'unknown' ? format : sniffFormat(bytes);
      return { bytes, contentType: CONTENT_TYPES[kind] };
    },
    close: async () => void db.close(),
  };
}
