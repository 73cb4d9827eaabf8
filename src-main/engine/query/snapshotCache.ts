/**
 * The snapshot saved beside the data file (`<file>.snapshot`), so a session starts with its
 * counts in ~100 ms instead of re-reading a million rows (~2 s). It is only a head start: the
 * service always re-reads the store in the background after using it (see service.ts), so a file
 * changed while Blotter was closed is caught within seconds.
 *
 * Format: "BLOTSNP1", a little-endian u32 header length, the JSON header (sizes, dictionaries,
 * column offsets), then each column's bytes at an 8-byte-aligned offset.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { Dictionary } from './dictionary';
import { COLUMN_NAMES, Snapshot, type ColumnName } from './snapshot';

const MAGIC = 'BLOTSNP1';
const FORMAT = 1;

type Header = {
  format: number;
  /** Anything that must match for the file to be used (the schema version, say). */
  stamp: string;
  size: number;
  sortedRows: number;
  types: string[];
  zones: string[];
  addresses: string[];
  columns: { name: ColumnName; offset: number; bytes: number }[];
  /** The file's incident change counter the snapshot reflects (changeLog.ts), null if unknown. */
  changes?: string | null;
};

/** A saved snapshot and the change counter it reflects. */
export type SavedSnapshot = { snapshot: Snapshot; changes: string | null };

let writes = 0;
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** The snapshot as one buffer (a copy: the snapshot may change while the buffer is written). */
export function serializeSnapshot(snapshot: Snapshot, stamp: string, changes: string | null = null): Buffer {
  const cols = snapshot.columns();
  const layout: Header['columns'] = [];
  let offset = 0;
  for (const name of COLUMN_NAMES) {
    layout.push({ name, offset, bytes: cols[name].byteLength });
    offset = align8(offset + cols[name].byteLength);
  }
  const header: Header = {
    format: FORMAT,
    stamp,
    size: snapshot.size,
    sortedRows: snapshot.sortedRows,
    types: snapshot.types.values,
    zones: snapshot.zones.values,
    addresses: snapshot.addresses.values,
    columns: layout,
    changes,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(MAGIC.length + 4 + json.length);
  const out = Buffer.alloc(start + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  for (const c of layout) {
    const col = cols[c.name];
    out.set(new Uint8Array(col.buffer, col.byteOffset, col.byteLength), start + c.offset);
  }
  return out;
}

/** The snapshot of a serialized buffer, or null when it is not one (or not of this stamp). */
export function deserializeSnapshot(data: Buffer, stamp: string): Snapshot | null {
  return deserializeSaved(data, stamp)?.snapshot ?? null;
}

/** The snapshot of a serialized buffer with the change counter it reflects, or null. */
export function deserializeSaved(data: Buffer, stamp: string): SavedSnapshot | null {
  if (data.length < MAGIC.length + 4 || data.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const length = data.readUInt32LE(MAGIC.length);
  if (MAGIC.length + 4 + length > data.length) return null;
  const header = JSON.parse(data.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + length)) as Header;
  if (header.format !== FORMAT || header.stamp !== stamp) return null;
  const start = align8(MAGIC.length + 4 + length);
  const byName = new Map(header.columns.map((c) => [c.name, c]));
  const snapshot = new Snapshot(Math.ceil(header.size * 1.02) + 1024, {
    types: Dictionary.of(header.types),
    zones: Dictionary.of(header.zones),
    addresses: Dictionary.of(header.addresses),
  });
  let valid = true;
  snapshot.restore(header.size, header.sortedRows, (name, target) => {
    const c = byName.get(name);
    if (!c || c.bytes !== target.byteLength || start + c.offset + c.bytes > data.length) {
      valid = false;
      return;
    }
    new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(
      data.subarray(start + c.offset, start + c.offset + c.bytes),
    );
  });
  return valid ? { snapshot, changes: header.changes ?? null } : null;
}

export async function readSnapshotFile(file: string, stamp: string): Promise<SavedSnapshot | null> {
  try {
    return deserializeSaved(await readFile(file), stamp);
  } catch {
    return null; // missing or unreadable: the store is read instead
  }
}

/** Writes atomically (temp file, then rename). */
export async function writeSnapshotFile(
  file: string,
  snapshot: Snapshot,
  stamp: string,
  changes: string | null = null,
): Promise<void> {
  const data = serializeSnapshot(snapshot, stamp, changes);
  const temp = `${file}.${process.pid}-${++writes}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
