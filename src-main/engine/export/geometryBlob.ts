/**
 * GeoPackage geometry blobs (OGC GeoPackage 1.3, §2.1.3): the "GP" header (version 0, flags:
 * little-endian, an envelope [minx, maxx, miny, maxy] for polygons, none for points), the SRS id,
 * then the geometry as little-endian WKB. Coordinates are x = longitude, y = latitude (EPSG:4326
 * as GeoPackage stores it).
 */

const HEADER = 8;

/** A point's blob: 8 header bytes + 21 WKB bytes. */
export function pointBlob(lon: number, lat: number, srsId = 4326): Buffer {
  const b = Buffer.alloc(HEADER + 21);
  header(b, 0, srsId);
  b.writeUInt8(1, 8); // WKB little-endian
  b.writeUInt32LE(1, 9); // Point
  b.writeDoubleLE(lon, 13);
  b.writeDoubleLE(lat, 21);
  return b;
}

/** A polygon's blob from rings of [lat, lon] (each ring closed), with its envelope. */
export function polygonBlob(rings: readonly (readonly [number, number])[][], srsId = 4326): Buffer {
  const points = rings.reduce((n, r) => n + r.length, 0);
  const b = Buffer.alloc(HEADER + 32 + 9 + rings.length * 4 + points * 16);
  header(b, 1, srsId);
  let o = HEADER;
  for (const v of envelopeOf(rings)) {
    b.writeDoubleLE(v, o);
    o += 8;
  }
  b.writeUInt8(1, o);
  b.writeUInt32LE(3, o + 1); // Polygon
  b.writeUInt32LE(rings.length, o + 5);
  o += 9;
  for (const ring of rings) {
    b.writeUInt32LE(ring.length, o);
    o += 4;
    for (const [lat, lon] of ring) {
      b.writeDoubleLE(lon, o);
      b.writeDoubleLE(lat, o + 8);
      o += 16;
    }
  }
  return b;
}

/**
 * A polygon's envelope [minX, maxX, minY, maxY] (x = longitude) from rings of [lat, lon], the
 * blob's and the spatial index's; Infinity/-Infinity when it has no corner. By a loop: a feature
 * may have 250,000 corners, past what Math.min(...) can spread.
 */
export function envelopeOf(
  rings: readonly (readonly (readonly [number, number])[])[],
): [number, number, number, number] {
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const ring of rings)
    for (const [lat, lon] of ring) {
      if (lon < minX) minX = lon;
      if (lon > maxX) maxX = lon;
      if (lat < minY) minY = lat;
      if (lat > maxY) maxY = lat;
    }
  return [minX, maxX, minY, maxY];
}

/** "GP", version 0, flags (bit 0: little-endian; bits 1–3: envelope kind), SRS id. */
function header(b: Buffer, envelope: 0 | 1, srsId: number): void {
  b.write('GP', 0, 'ascii');
  b.writeUInt8(0, 2);
  b.writeUInt8(1 | (envelope << 1), 3);
  b.writeInt32LE(srsId, 4);
}
