/**
 * The snapshot saved beside the data file (`<file>.snapshot`), so a session starts with its
 * counts in ~100 ms instead of re-reading a million rows (~2 s). It is only a head start: when the
 * file's change counter moved since it was saved, the keeper re-reads the store in the background
 * (snapshotKeeper.ts); the app's views answer from it meanwhile, marked "updating", and results
 * wait for the re-read (service.ts `snapshot`).
 *
 * Format: "BLOTSNP2", a little-endian u32 length and the JSON *facts* (the stamp, the change
 * counter, the archive summary and live incidents per day and type: counts.ts `CountFacts`), read
 * alone by `readSavedFacts` so counts and the summary can answer before the columns are in memory;
 * then a u32 header length, the JSON header (sizes, dictionaries, column offsets), then each
 * column's bytes at an 8-byte-aligned offset.
 */
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { countFactsOf, type CountFacts } from './counts';
import { Dictionary } from './dictionary';
import { COLUMN_NAMES, Snapshot, type ColumnName } from './snapshot';

const MAGIC = 'BLOTSNP2';
const FORMAT = 2;

/** The block read first: what answers counts and the summary, and whether it is still current. */
export type SavedFacts = CountFacts & { format: number; stamp: string; changes: string | null };

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
  const facts: SavedFacts = { format: FORMAT, stamp, changes, ...countFactsOf(snapshot) };
  const factsJson = Buffer.from(JSON.stringify(facts), 'utf8');
  const at = MAGIC.length + 4 + factsJson.length;
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(at + 4 + json.length);
  const out = Buffer.alloc(start + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(factsJson.length, MAGIC.length);
  factsJson.copy(out, MAGIC.length + 4);
  out.writeUInt32LE(json.length, at);
  json.copy(out, at + 4);
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
  const factsLength = data.readUInt32LE(MAGIC.length);
  const at = MAGIC.length + 4 + factsLength;
  if (at + 4 > data.length) return null;
  const length = data.readUInt32LE(at);
  if (at + 4 + length > data.length) return null;
  const header = JSON.parse(data.toString('utf8', at + 4, at + 4 + length)) as Header;
  if (header.format !== FORMAT || header.stamp !== stamp) return null;
  const start = align8(at + 4 + length);
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

/** Only the facts block of a saved snapshot (a few KB read, not the columns), or null. */
export async function readSavedFacts(file: string, stamp: string): Promise<SavedFacts | null> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(file, 'r');
    const head = Buffer.alloc(MAGIC.length + 4);
    if ((await handle.read(head, 0, head.length, 0)).bytesRead < head.length) return null;
    if (head.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const length = head.readUInt32LE(MAGIC.length);
    if (length > 64 * 1024 * 1024) return null;
    const json = Buffer.alloc(length);
    if ((await handle.read(json, 0, length, head.length)).bytesRead < length) return null;
    const facts = JSON.parse(json.toString('utf8')) as SavedFacts;
    return facts.format === FORMAT && facts.stamp === stamp ? facts : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
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
