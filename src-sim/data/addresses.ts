/**
 * Block-level addresses. Incidents are geocoded to block points on a grid (so many share exact
 * coordinates, as block-level data does); a block's address is derived from its grid cell and is
 * clearly synthetic ("1200 Block of W Synthetic Oak St").
 */
import { hashInts } from './prng';

export const BLOCK_LAT = 0.0008;
export const BLOCK_LON = 0.001;

const NAMES = [
  'Oak',
  'Maple',
  'Elm',
  'Cedar',
  'Birch',
  'Willow',
  'Aspen',
  'Spruce',
  'Hickory',
  'Juniper',
  'Magnolia',
  'Poplar',
  'Sycamore',
  'Linden',
  'Alder',
  'Chestnut',
  'Cypress',
  'Hemlock',
  'Laurel',
  'Redbud',
  'Sparrow',
  'Heron',
  'Falcon',
  'Finch',
  'Robin',
  'Wren',
  'Kestrel',
  'Plover',
  'Osprey',
  'Tanager',
];

/** The block point (6 decimals) nearest to a raw location. */
export function snapToBlock(lat: number, lon: number): { lat: number; lon: number } {
  const iy = Math.round(lat / BLOCK_LAT);
  const ix = Math.round(lon / BLOCK_LON);
  const h = hashInts(ix, iy, 7);
  const jLat = ((h & 0xffff) / 0xffff - 0.5) * 0.0003;
  const jLon = ((h >>> 16) / 0xffff - 0.5) * 0.0004;
  return { lat: round6(iy * BLOCK_LAT + jLat), lon: round6(ix * BLOCK_LON + jLon) };
}

export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The synthetic address of the block at (lat, lon), numbered from the city centre. */
export function blockAddress(
  lat: number,
  lon: number,
  cityLat: number,
  cityLon: number,
  cityIndex: number,
): string {
  const iy = Math.round(lat / BLOCK_LAT);
  const ix = Math.round(lon / BLOCK_LON);
  const dx = ix - Math.round(cityLon / BLOCK_LON);
  const dy = iy - Math.round(cityLat / BLOCK_LAT);
  if (((ix + iy) & 1) === 0) return `${Math.abs(dx) * 100} Block of ${rowStreetName(iy, dx, cityIndex)}`;
  return `${Math.abs(dy) * 100} Block of ${columnStreetName(ix, dy, cityIndex)}`;
}

/** The east–west street along block row `iy`, on the side `dx` (blocks east of the centre) lies. */
export function rowStreetName(iy: number, dx: number, cityIndex: number): string {
  return `${dx < 0 ? 'W' : 'E'} Synthetic ${NAMES[hashInts(iy, cityIndex, 1) % NAMES.length]} St`;
}

/** The north–south avenue along block column `ix`, on the side `dy` (blocks north of the centre) lies. */
export function columnStreetName(ix: number, dy: number, cityIndex: number): string {
  return `${dy < 0 ? 'S' : 'N'} Synthetic ${NAMES[hashInts(ix, cityIndex, 2) % NAMES.length]} Ave`;
}

/** An amended address: the same street, the neighbouring block number (a geocoding correction). */
export function amendAddress(address: string): string {
  const m = /^(\d+)( Block of .*)$/i.exec(address);
  if (!m) return `${address} (corrected)`;
  return `${Number(m[1]) + 100}${m[2]}`;
}

/**
 * Deliberately hostile addresses, so the app's XSS, CSV-injection and encoding tests have material.
 * Each is given to one dedicated incident (see generate.ts); the list order is stable.
 */
export const SPECIAL_ADDRESSES: readonly string[] = [
  '100 Block of <script>alert("xss")</script> Synthetic St',
  '200 Block of Synthetic <img src=x onerror=alert(1)> Pl',
  "300 Block of Synthetic Ben & Jerry's Way",
  '400 Block of "Quoted" Synthetic Blvd, Apt \'B\'',
  '=HYPERLINK("https://evil.example.test","click") Synthetic Ave',
  '+1+2 Block of Synthetic Plus St',
  '-3+4 Block of Synthetic Minus Rd',
  '@SUM(A1:A9) Synthetic Ct',
  '500 Block of Synthetic Café Ñandú Ave',
  '600 Block of Synthetic Line\nBreak St',
];
