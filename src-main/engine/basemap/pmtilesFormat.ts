/**
 * The PMTiles v3 format for the engine: the rules (header, Hilbert tile ids, varint directories)
 * live in src-shared/pmtiles, shared with the writer; this adds gzip for compressed internals via
 * zlib (the `pmtiles` package bundles a browser gzip shim that cannot live in the engine's bundle).
 */
import { gunzipSync } from 'node:zlib';
import { COMPRESSION } from '../../../src-shared/pmtiles';
import { capText } from '../api/outboundAddress';

export {
  COMPRESSION,
  findEntry,
  parseDirectory,
  parseHeader,
  tileIdOf,
  TILE_TYPE,
  type PmEntry,
  type PmHeader,
} from '../../../src-shared/pmtiles';

/**
 * Why a part of an archive could not be read: `too_large` — it is (or decompresses to) more than
 * the cap (a gzip bomb stops there); `damaged` — it is not the gzip it should be; `unsupported` — a
 * compression Blotter does not read. Callers say which part of which archive in their own words.
 */
export class PartProblem extends Error {
  constructor(
    readonly kind: 'too_large' | 'damaged' | 'unsupported',
    message: string,
  ) {
    super(message);
    this.name = 'PartProblem';
  }
}

/**
 * Decompressed bytes, refused once they would pass `cap` (a gzip bomb stops at the cap; zlib's
 * maxOutputLength). The cap is DESIGN.md's: 16 MB for directories and metadata, 4 MB for a tile.
 */
export function decompress(bytes: Uint8Array, compression: number, cap: number = Infinity): Uint8Array {
  if (compression === COMPRESSION.none || compression === COMPRESSION.unknown) {
    if (bytes.byteLength > cap) throw new PartProblem('too_large', `is larger than ${capText(cap)}`);
    return bytes;
  }
  if (compression === COMPRESSION.gzip) {
    try {
      return new Uint8Array(gunzipSync(bytes, Number.isFinite(cap) ? { maxOutputLength: cap } : {}));
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new PartProblem('too_large', `decompresses to larger than ${capText(cap)}`);
      }
      throw new PartProblem('damaged', `is not readable gzip (${(error as Error).message})`);
    }
  }
  throw new PartProblem('unsupported', 'uses a compression other than gzip (Blotter reads gzip or none)');
}
