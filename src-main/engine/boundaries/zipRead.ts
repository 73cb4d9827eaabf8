/**
 * A zip read safely, in memory (nothing is written to disk): the central directory is read first
 * and the whole file is refused when any entry's name leads outside the zip's folder (`../`, an
 * absolute path, a drive letter), when it holds more than LIMITS.zipEntries entries, is encrypted,
 * ZIP64 or declares more than LIMITS.zipBytes uncompressed, or when an entry is a symbolic link or
 * a second entry of the same name (case aside). An entry is inflated only when asked,
 * with its output capped at its declared size (a zip bomb that lies about its size stops there).
 */
import { inflateRawSync } from 'node:zlib';
import { BoundaryProblem, LIMITS } from './boundaryFile';

export type ZipEntry = { name: string; method: number; compressed: number; size: number; offset: number };

export type ZipArchive = { entries: ZipEntry[]; read(entry: ZipEntry): Buffer };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const refuse = (why: string) => new BoundaryProblem(`The zip cannot be read: ${why}`);

/** Whether an entry name stays inside the folder the zip would be unpacked into. */
export function safeEntryName(name: string): boolean {
  if (name.includes('\0')) return false;
  if (name.startsWith('/') || name.startsWith('\\') || /^[a-zA-Z]:/.test(name)) return false;
  return !name.split(/[\\/]/).some((part) => part === '..');
}

export function readZip(bytes: Buffer): ZipArchive {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== LOCAL)
    throw refuse('it is not a zip file (no zip header at its start).');
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw refuse('its table of contents is missing (the file is cut short?).');
  const count = bytes.readUInt16LE(end + 10);
  const dirSize = bytes.readUInt32LE(end + 12);
  const dirOffset = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || dirOffset === 0xffffffff)
    throw refuse('it is a ZIP64 file, which Blotter does not read.');
  if (count > LIMITS.zipEntries)
    throw refuse(`it holds ${count} entries; at most ${LIMITS.zipEntries} are read.`);
  if (dirOffset + dirSize > end) throw refuse('its table of contents points past its end.');

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let p = dirOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > end || bytes.readUInt32LE(p) !== CENTRAL) throw refuse('its table of contents is damaged.');
    const madeBy = bytes.readUInt8(p + 5);
    const flags = bytes.readUInt16LE(p + 8);
    const method = bytes.readUInt16LE(p + 10);
    const compressed = bytes.readUInt32LE(p + 20);
    const size = bytes.readUInt32LE(p + 24);
    const nameLen = bytes.readUInt16LE(p + 28);
    const extraLen = bytes.readUInt16LE(p + 30);
    const commentLen = bytes.readUInt16LE(p + 32);
    const external = bytes.readUInt32LE(p + 38);
    const offset = bytes.readUInt32LE(p + 42);
    const raw = bytes.subarray(p + 46, p + 46 + nameLen);
    const name = flags & 0x800 ? raw.toString('utf8') : raw.toString('latin1');
    p += 46 + nameLen + extraLen + commentLen;
    if (!safeEntryName(name))
      throw refuse(
        `it holds an entry named "${name}", which points outside the zip's own folder; such zips are refused.`,
      );
    if (flags & 1) throw refuse(`"${name}" is encrypted.`);
    // Unix (3) and macOS (19) zips keep the file mode in the high half: 0o120000 is a symlink.
    if ((madeBy === 3 || madeBy === 19) && ((external >>> 16) & 0o170000) === 0o120000)
      throw refuse(`"${name}" is a symbolic link, not a file; such zips are refused.`);
    // Two entries of one name (case aside): which one a reader takes would be a guess.
    const key = name.toLowerCase();
    if (names.has(key)) throw refuse(`it holds "${name}" twice; such zips are refused.`);
    names.add(key);
    if (size === 0xffffffff || compressed === 0xffffffff || offset === 0xffffffff)
      throw refuse('it is a ZIP64 file, which Blotter does not read.');
    if (method !== 0 && method !== 8)
      throw refuse(
        `"${name}" is compressed with method ${method}; only stored and deflated entries are read.`,
      );
    total += size;
    if (total > LIMITS.zipBytes)
      throw refuse(`its entries would unpack to more than ${Math.round(LIMITS.zipBytes / 1024 / 1024)} MB.`);
    entries.push({ name, method, compressed, size, offset });
  }

  const read = (entry: ZipEntry): Buffer => {
    // One entry is one file: no larger than a boundary file read on its own (a 1 GB .shp of
    // zeros took 2.6 s and 1 GB to inflate before its first record was refused).
    if (entry.size > LIMITS.fileBytes)
      throw refuse(
        `"${entry.name}" would unpack to ${Math.round(entry.size / 1024 / 1024)} MB; at most ${LIMITS.fileBytes / 1024 / 1024} MB are read for one file.`,
      );
    const o = entry.offset;
    if (o + 30 > bytes.length || bytes.readUInt32LE(o) !== LOCAL) throw refuse(`"${entry.name}" is damaged.`);
    const start = o + 30 + bytes.readUInt16LE(o + 26) + bytes.readUInt16LE(o + 28);
    const data = bytes.subarray(start, start + entry.compressed);
    if (data.length !== entry.compressed) throw refuse(`"${entry.name}" is cut short.`);
    if (entry.method === 0) {
      if (entry.compressed !== entry.size) throw refuse(`"${entry.name}" is damaged.`);
      return data;
    }
    let out: Buffer;
    try {
      // One byte over the declared size, so an entry that inflates to more is caught, not cut.
      out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch {
      throw refuse(`"${entry.name}" does not inflate to its declared ${entry.size} bytes.`);
    }
    if (out.length !== entry.size) throw refuse(`"${entry.name}" does not inflate to its declared size.`);
    return out;
  };
  return { entries, read };
}
