/**
 * `<dataDir>/tile-cache.sqlite`: online tiles the user actually viewed, with their validators
 * (ETag, Last-Modified) and freshness. Nothing is ever put here ahead of a view. The least recently
 * used tiles are dropped once the cache passes its size limit.
 */
import Database from 'better-sqlite3';

export type CachedTile = {
  url: string;
  bytes: Uint8Array;
  contentType: string;
  etag: string | null;
  lastModified: string | null;
  expiresAt: number;
};

export interface TileCache {
  get(url: string): CachedTile | null;
  put(tile: CachedTile, now: number): void;
  /** A 304: the stored bytes are good until `expiresAt`. */
  refresh(url: string, expiresAt: number, now: number): void;
  stats(): { tiles: number; bytes: number };
  close(): void;
}

export const DEFAULT_CACHE_LIMIT_BYTES = 512 * 1024 * 1024;

type Row = {
  url: string;
  bytes: Buffer;
  content_type: string;
  etag: string | null;
  last_modified: string | null;
  expires_at: number;
};

export function openTileCache(file: string, limitBytes = DEFAULT_CACHE_LIMIT_BYTES): TileCache {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS tiles (
    url TEXT PRIMARY KEY,
    bytes BLOB NOT NULL,
    content_type TEXT NOT NULL,
    etag TEXT,
    last_modified TEXT,
    expires_at INTEGER NOT NULL,
    fetched_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL,
    size INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS tiles_used ON tiles (used_at);`);
  const select = db.prepare<[string], Row>(
    'SELECT url, bytes, content_type, etag, last_modified, expires_at FROM tiles WHERE url = ?',
  );
  const touch = db.prepare<[number, string]>('UPDATE tiles SET used_at = ? WHERE url = ?');
  const upsert = db.prepare(
    `INSERT INTO tiles (url, bytes, content_type, etag, last_modified, expires_at, fetched_at, used_at, size)
     VALUES (@url, @bytes, @contentType, @etag, @lastModified, @expiresAt, @now, @now, @size)
     ON CONFLICT (url) DO UPDATE SET bytes = excluded.bytes, content_type = excluded.content_type,
       etag = excluded.etag, last_modified = excluded.last_modified, expires_at = excluded.expires_at,
       fetched_at = excluded.fetched_at, used_at = excluded.used_at, size = excluded.size`,
  );
  const refresh = db.prepare<[number, number, string]>(
    'UPDATE tiles SET expires_at = ?, used_at = ? WHERE url = ?',
  );
  const totals = db.prepare<[], { tiles: number; bytes: number | null }>(
    'SELECT count(*) AS tiles, sum(size) AS bytes FROM tiles',
  );
  const oldest = db.prepare<[], { url: string; size: number }>(
    'SELECT url, size FROM tiles ORDER BY used_at LIMIT 200',
  );
  const remove = db.prepare<[string]>('DELETE FROM tiles WHERE url = ?');
  let sinceEvict = 0;

  const evict = db.transaction(() => {
    let total = totals.get()?.bytes ?? 0;
    while (total > limitBytes) {
      const batch = oldest.all();
      if (batch.length === 0) break;
      for (const row of batch) {
        if (total <= limitBytes) break;
        remove.run(row.url);
        total -= row.size;
      }
    }
  });

  return {
    get(url) {
      const row = select.get(url);
      if (!row) return null;
      touch.run(Date.now(), url);
      return {
        url: row.url,
        bytes: new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength),
        contentType: row.content_type,
        etag: row.etag,
        lastModified: row.last_modified,
        expiresAt: row.expires_at,
      };
    },
    put(tile, now) {
      upsert.run({
        url: tile.url,
        bytes: Buffer.from(tile.bytes.buffer, tile.bytes.byteOffset, tile.bytes.byteLength),
        contentType: tile.contentType,
        etag: tile.etag,
        lastModified: tile.lastModified,
        expiresAt: Math.round(tile.expiresAt),
        now,
        size: tile.bytes.byteLength,
      });
      sinceEvict += tile.bytes.byteLength;
      if (sinceEvict > limitBytes / 64) {
        sinceEvict = 0;
        evict();
      }
    },
    refresh: (url, expiresAt, now) => void refresh.run(Math.round(expiresAt), now, url),
    stats() {
      const t = totals.get();
      return { tiles: t?.tiles ?? 0, bytes: t?.bytes ?? 0 };
    },
    close: () => void db.close(),
  };
}
