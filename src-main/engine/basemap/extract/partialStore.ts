/**
 * `<out>.partial`: a small SQLite file holding what an unfinished extract has — the source's header
 * and etag (so a resume can tell a new build), the request (boxes, zooms), the directories read, and
 * every tile content fetched, keyed by its offset in the source. Each request's tiles are committed
 * in one transaction, so a kill loses at most the request in flight and nothing is fetched twice.
 *
 * Only a download writes it. An estimate reads it (`readPartialStore`) and writes nothing: the file
 * is left in rollback-journal mode when closed, so a read-only open creates no -wal or -shm file.
 */
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';

export type PartialIdentity = { url: string; etag: string | null; header: Uint8Array; request: string };

export type PartialStore = {
  /** The identity it was started with, or null for a new file. */
  identity(): PartialIdentity | null;
  start(identity: PartialIdentity): void;
  part(offset: number, length: number): Uint8Array | null;
  putPart(offset: number, length: number, bytes: Uint8Array): void;
  haveTiles(): Set<number>;
  tile(offset: number): Uint8Array | null;
  putTiles(tiles: readonly { offset: number; bytes: Uint8Array }[]): void;
  close(): void;
};

export function openPartialStore(file: string): PartialStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB);
           CREATE TABLE IF NOT EXISTS parts (offset INTEGER, length INTEGER, bytes BLOB, PRIMARY KEY (offset, length));
           CREATE TABLE IF NOT EXISTS tiles (offset INTEGER PRIMARY KEY, bytes BLOB NOT NULL);`);
  const getMeta = db.prepare<[string], { value: Buffer | string | null }>(
    'SELECT value FROM meta WHERE key = ?',
  );
  const setMeta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  const getPart = db.prepare<[number, number], { bytes: Buffer }>(
    'SELECT bytes FROM parts WHERE offset = ? AND length = ?',
  );
  const setPart = db.prepare('INSERT OR REPLACE INTO parts (offset, length, bytes) VALUES (?, ?, ?)');
  const getTile = db.prepare<[number], { bytes: Buffer }>('SELECT bytes FROM tiles WHERE offset = ?');
  const setTile = db.prepare('INSERT OR REPLACE INTO tiles (offset, bytes) VALUES (?, ?)');
  const putTiles = db.transaction((tiles: readonly { offset: number; bytes: Uint8Array }[]) => {
    for (const t of tiles)
      setTile.run(t.offset, Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength));
  });
  const meta = (key: string) => getMeta.get(key)?.value ?? null;
  const u8 = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

  return {
    identity() {
      const header = meta('header');
      if (!(header instanceof Buffer)) return null;
      const etag = meta('etag');
      return {
        url: String(meta('url')),
        etag: typeof etag === 'string' ? etag : null,
        header: u8(header),
        request: String(meta('request')),
      };
    },
    start(id) {
      db.transaction(() => {
        db.exec('DELETE FROM meta; DELETE FROM parts; DELETE FROM tiles;');
        setMeta.run('url', id.url);
        setMeta.run('etag', id.etag);
        setMeta.run('request', id.request);
        setMeta.run('header', Buffer.from(id.header));
      })();
    },
    part(offset, length) {
      const row = getPart.get(offset, length);
      return row ? u8(row.bytes) : null;
    },
    putPart(offset, length, bytes) {
      setPart.run(offset, length, Buffer.from(bytes));
    },
    haveTiles() {
      const rows = db.prepare('SELECT offset FROM tiles').raw().all() as [number][];
      return new Set(rows.map((r) => r[0]));
    },
    tile(offset) {
      const row = getTile.get(offset);
      return row ? u8(row.bytes) : null;
    },
    putTiles: (tiles) => putTiles(tiles),
    close: () => {
      if (!db.open) return;
      try {
        // WAL while downloading; closed, the file stands alone (a reader then writes nothing).
        db.pragma('journal_mode = DELETE');
      } catch {
        // another connection has it open: WAL stays, which is only a reader's -shm
      }
      db.close();
    },
  };
}

/** What an unfinished download kept, read without writing (null when there is none). */
export type KeptPartial = Pick<PartialStore, 'identity' | 'part' | 'haveTiles' | 'close'>;

export function readPartialStore(file: string): KeptPartial | null {
  if (!existsSync(file)) return null;
  // A file left in WAL mode (a killed download) makes SQLite create -wal/-shm even read only:
  // those it creates are removed again on close.
  const created = ['-wal', '-shm'].filter((suffix) => !existsSync(`${file}${suffix}`));
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM meta LIMIT 1').get();
    db.prepare('SELECT 1 FROM parts LIMIT 1').get();
    db.prepare('SELECT 1 FROM tiles LIMIT 1').get();
  } catch {
    // not one of ours, or empty: a download starts it over
    cleanUp(file, created);
    return null;
  }
  const u8 = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  const meta = (key: string) =>
    (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: unknown } | undefined)?.value ??
    null;
  return {
    identity() {
      const header = meta('header');
      if (!(header instanceof Buffer)) return null;
      const etag = meta('etag');
      return {
        url: String(meta('url')),
        etag: typeof etag === 'string' ? etag : null,
        header: u8(header),
        request: String(meta('request')),
      };
    },
    part(offset, length) {
      const row = db
        .prepare('SELECT bytes FROM parts WHERE offset = ? AND length = ?')
        .get(offset, length) as { bytes: Buffer } | undefined;
      return row ? u8(row.bytes) : null;
    },
    haveTiles() {
      const rows = db.prepare('SELECT offset FROM tiles').raw().all() as [number][];
      return new Set(rows.map((r) => r[0]));
    },
    close() {
      if (db.open) db.close();
      cleanUp(file, created);
    },
  };
}

function cleanUp(file: string, created: string[]): void {
  for (const suffix of created) {
    const f = `${file}${suffix}`;
    // An empty -wal, and the -shm index of nothing, that this reader made.
    rmSync(f, { force: true });
  }
}
