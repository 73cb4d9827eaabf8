/** Test fixtures: tiny MBTiles and PMTiles files holding a few 1×1 PNG tiles. */
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tileIdOf } from './pmtilesFormat';

/** A 1×1 PNG (the smallest valid one) with a marker byte appended, so tiles can be told apart. */
export function pngTile(marker: number): Uint8Array {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  return new Uint8Array([...png, marker]);
}

export type TestTile = { z: number; x: number; y: number; bytes: Uint8Array };

/** An MBTiles file; tiles given in XYZ numbering are stored in TMS numbering, as the format says. */
export function writeMbtiles(file: string, tiles: TestTile[], metadata: Record<string, string>): void {
  const db = new Database(file);
  db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
           CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);`);
  const meta = db.prepare('INSERT INTO metadata VALUES (?, ?)');
  for (const [k, v] of Object.entries(metadata)) meta.run(k, v);
  const put = db.prepare('INSERT INTO tiles VALUES (?, ?, ?, ?)');
  for (const t of tiles) put.run(t.z, t.x, 2 ** t.z - 1 - t.y, Buffer.from(t.bytes));
  db.close();
}

function varints(values: number[]): number[] {
  const out: number[] = [];
  for (let v of values) {
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
  }
  return out;
}

/** A PMTiles v3 archive: uncompressed root directory, JSON metadata, tile data; tileType 2 = PNG. */
export function writePmtiles(file: string, tiles: TestTile[], metadata: object, tileType = 2): void {
  const sorted = tiles
    .map((t) => ({ id: tileIdOf(t.z, t.x, t.y), bytes: t.bytes }))
    .sort((a, b) => a.id - b.id);
  let offset = 0;
  const entries = sorted.map((t) => {
    const e = { id: t.id, offset, length: t.bytes.length };
    offset += t.bytes.length;
    return e;
  });
  let last = 0;
  const dir = new Uint8Array(
    varints([
      entries.length,
      ...entries.map((e) => {
        const d = e.id - last;
        last = e.id;
        return d;
      }),
      ...entries.map(() => 1),
      ...entries.map((e) => e.length),
      ...entries.map((e) => e.offset + 1),
    ]),
  );
  const meta = new TextEncoder().encode(JSON.stringify(metadata));
  const data = Buffer.concat(sorted.map((t) => Buffer.from(t.bytes)));
  const header = Buffer.alloc(127);
  const u64 = (at: number, v: number) => header.writeBigUInt64LE(BigInt(v), at);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  u64(8, 127);
  u64(16, dir.length);
  u64(24, 127 + dir.length);
  u64(32, meta.length);
  u64(40, 127 + dir.length + meta.length);
  u64(48, 0);
  u64(56, 127 + dir.length + meta.length);
  u64(64, data.length);
  u64(72, entries.length);
  u64(80, entries.length);
  u64(88, entries.length);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(tileType, 99);
  const zooms = tiles.map((t) => t.z);
  header.writeUInt8(Math.min(...zooms), 100);
  header.writeUInt8(Math.max(...zooms), 101);
  header.writeInt32LE(-180e7, 102);
  header.writeInt32LE(-85e7, 106);
  header.writeInt32LE(180e7, 110);
  header.writeInt32LE(85e7, 114);
  writeFileSync(file, Buffer.concat([header, dir, meta, data]));
}
