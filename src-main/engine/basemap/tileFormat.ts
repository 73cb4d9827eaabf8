/** What a tile's bytes are: raster images by their magic numbers, vector tiles (MVT) by elimination. */
import type { BasemapInfo } from '../../../src-shared/basemap';

export type TileFormat = NonNullable<BasemapInfo['format']>;

export const CONTENT_TYPES: Record<TileFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mvt: 'application/vnd.mapbox-vector-tile',
  unknown: 'application/octet-stream',
};

/** The format named by an MBTiles `format` metadata value or a content type. */
export function formatFromName(name: string | null | undefined): TileFormat | null {
  const n = (name ?? '').toLowerCase().trim();
  if (n === 'png' || n === 'image/png') return 'png';
  if (n === 'jpg' || n === 'jpeg' || n === 'image/jpeg' || n === 'image/jpg') return 'jpeg';
  if (n === 'webp' || n === 'image/webp') return 'webp';
  if (n === 'pbf' || n === 'mvt' || n.includes('vector-tile') || n.includes('protobuf')) return 'mvt';
  return null;
}

/**
 * The format of tile bytes, from their first bytes: gzip-compressed data is taken as MVT, and so is
 * a raw MVT protobuf (its first field is `layers`, field 3, length-delimited: byte 0x1a).
 */
export function sniffFormat(bytes: Uint8Array): TileFormat {
  const b = (i: number) => bytes[i] ?? -1;
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47) return 'png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  if (b(0) === 0x52 && b(1) === 0x49 && b(2) === 0x46 && b(3) === 0x46 && b(8) === 0x57 && b(9) === 0x45)
    return 'webp';
  if (b(0) === 0x1f && b(1) === 0x8b) return 'mvt';
  if (b(0) === 0x1a && bytes.length > 2) return 'mvt';
  return 'unknown';
}

export const isRaster = (format: TileFormat | null): boolean =>
  format === 'png' || format === 'jpeg' || format === 'webp';
