/**
 * The PMTiles v3 format for the engine: the rules (header, Hilbert tile ids, varint directories)
 * live in src-shared/pmtiles, shared with the writer; this adds gzip for compressed internals via
 * zlib (the `pmtiles` package bundles a browser gzip shim that cannot live in the engine's bundle).
 */
import { gunzipSync } from 'node:zlib';
import { COMPRESSION } from '../../../src-shared/pmtiles';

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

export function decompress(bytes: Uint8Array, compression: number): Uint8Array {
  if (compression === COMPRESSION.none || compression === COMPRESSION.unknown) return bytes;
  if (compression === COMPRESSION.gzip) return new Uint8Array(gunzipSync(bytes));
  throw new Error('a compression other than gzip (Blotter reads gzip or none)');
}
