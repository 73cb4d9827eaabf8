/**
 * A minimal ZIP writer (PKWARE APPNOTE 6.3): files from disk streamed through raw deflate into one
 * archive, each entry followed by a data descriptor (CRC-32 and sizes, known only after writing)
 * and listed in the central directory. No ZIP64: an archive or entry of 4 GiB or more is refused
 * (a shapefile's parts stop at 2 GiB anyway). Names are plain ASCII file names, no folders.
 */
import { createReadStream } from 'node:fs';
import { crc32, createDeflateRaw } from 'node:zlib';
import type { FileSink } from '../files/fileSink';

const LIMIT = 0xffff_ffff;

type Entry = {
  name: string;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  time: number;
  date: number;
};

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Writes the files (name in the archive → path on disk) as a zip into the sink; returns nothing. */
export async function writeZip(
  sink: FileSink,
  files: readonly { name: string; path: string }[],
  now = new Date(),
): Promise<void> {
  const entries: Entry[] = [];
  let offset = 0;
  const put = async (b: Buffer) => {
    await sink.write(b);
    offset += b.length;
  };
  const { time, date } = dosTime(now);
  for (const f of files) {
    if (!/^[\x20-\x7e]+$/.test(f.name) || f.name.includes('/') || f.name.includes('\\'))
      throw new Error(`zip entry names are plain ASCII file names (got ${JSON.stringify(f.name)})`);
    const name = Buffer.from(f.name, 'ascii');
    const start = offset;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0008, 6); // sizes in the data descriptor
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt16LE(name.length, 26);
    await put(Buffer.concat([local, name]));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = createDeflateRaw({ level: 6 });
    const source = createReadStream(f.path);
    source.on('data', (chunk) => {
      const b = chunk as Buffer;
      crc = crc32(b, crc);
      size += b.length;
    });
    source.on('error', (e) => deflate.destroy(e));
    source.pipe(deflate);
    for await (const chunk of deflate) {
      compressed += (chunk as Buffer).length;
      await put(chunk as Buffer);
    }
    if (size >= LIMIT || compressed >= LIMIT || offset >= LIMIT)
      throw new Error('The zip would be 4 GiB or more.');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await put(descriptor);
    entries.push({ name: f.name, crc: crc >>> 0, compressed, size, offset: start, time, date });
  }
  const dirStart = offset;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'ascii');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4); // made by
    c.writeUInt16LE(20, 6); // needed
    c.writeUInt16LE(0x0008, 8);
    c.writeUInt16LE(8, 10);
    c.writeUInt16LE(e.time, 12);
    c.writeUInt16LE(e.date, 14);
    c.writeUInt32LE(e.crc, 16);
    c.writeUInt32LE(e.compressed, 20);
    c.writeUInt32LE(e.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(e.offset, 42);
    await put(Buffer.concat([c, name]));
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - dirStart, 12);
  end.writeUInt32LE(dirStart, 16);
  if (offset >= LIMIT) throw new Error('The zip would be 4 GiB or more.');
  await put(end);
}
