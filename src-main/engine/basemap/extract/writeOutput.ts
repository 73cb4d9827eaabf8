/**
 * The finished extract: the kept tiles, in tile id order, through the shared PMTiles writer (tile
 * data streamed to a side file, directories and metadata gzipped), then head + data written to
 * `<out>.tmp`, flushed, and renamed over `<out>` — a reader never sees half a file.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { COMPRESSION, PmtilesWriter, type PmHeader } from '../../../../src-shared/pmtiles';
import type { PartialStore } from './partialStore';
import type { SourceTile } from './sourceArchive';

export type OutputSpec = {
  out: string;
  tiles: readonly SourceTile[];
  source: PmHeader;
  metadata: Record<string, unknown>;
  bounds: [number, number, number, number];
  minZoom: number;
  maxZoom: number;
};

export async function writeOutput(
  store: PartialStore,
  spec: OutputSpec,
): Promise<{ bytes: number; tiles: number }> {
  const dataFile = `${spec.out}.data.tmp`;
  const tmp = `${spec.out}.tmp`;
  const dataFd = openSync(dataFile, 'w', 0o600);
  let finished;
  try {
    const writer = new PmtilesWriter({ sink: (b) => writeAll(dataFd, b) });
    for (const t of spec.tiles) {
      const bytes = store.tile(t.offset);
      if (!bytes) throw new Error(`tile ${t.tileId} missing from the partial download`);
      writer.add(t.tileId, bytes, `@${t.offset}`);
    }
    const [minLon, minLat, maxLon, maxLat] = spec.bounds;
    finished = writer.finish({
      tileType: spec.source.tileType,
      tileCompression: spec.source.tileCompression,
      metadata: spec.metadata,
      internal: { kind: COMPRESSION.gzip, compress: (b) => new Uint8Array(gzipSync(b)) },
      bounds: spec.bounds,
      center: {
        lon: (minLon + maxLon) / 2,
        lat: (minLat + maxLat) / 2,
        zoom: Math.min(spec.maxZoom, Math.max(spec.minZoom, 12)),
      },
      minZoom: spec.minZoom,
      maxZoom: spec.maxZoom,
    });
  } finally {
    closeSync(dataFd);
  }
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeAll(fd, finished.head);
    const data = await open(dataFile, 'r');
    try {
      const buf = new Uint8Array(1 << 20);
      for (let at = 0; ;) {
        const { bytesRead } = await data.read(buf, 0, buf.length, at);
        if (bytesRead === 0) break;
        writeAll(fd, buf.subarray(0, bytesRead));
        at += bytesRead;
      }
    } finally {
      await data.close();
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, spec.out);
  rmSync(dataFile, { force: true });
  return {
    bytes: finished.header.dataOffset + finished.header.dataLength,
    tiles: finished.header.addressedTiles,
  };
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}
