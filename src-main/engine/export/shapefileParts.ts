/**
 * The parts of a point shapefile (ESRI Shapefile Technical Description, 1998; dBASE III for the
 * attributes): the .shp header and records, the .shx index, the .dbf header and records, the .prj
 * (WGS 84) and the .cpg (UTF-8). Pure functions on buffers; shpExport.ts streams them to files.
 *
 * Field names are at most 10 characters: longer column names are cut, and a cut that collides is
 * numbered (`descriptio`, `descripti1`). Text fields hold at most 254 bytes: longer texts are cut
 * at a character boundary and counted.
 */

export const PRJ_WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

export type DbfField = {
  name: string;
  /** The export column it holds, or `attributes.<key>` for a kept column (`kept` is the key). */
  column: string;
  kept?: string;
  type: 'C' | 'N' | 'L';
  length: number;
  decimals: number;
};

/**
 * Column names → unique dBASE field names of ≤ 10 characters, in order: letters, digits and
 * underscores (anything else an underscore, as GDAL launders names), unique without regard to case.
 */
export function shortNames(columns: readonly string[]): string[] {
  const used = new Set<string>();
  return columns.map((given) => {
    const column = given.replace(/[^A-Za-z0-9_]/g, '_') || '_';
    let name = column.slice(0, 10);
    for (let k = 1; used.has(name.toLowerCase()); k++) name = column.slice(0, 10 - String(k).length) + k;
    used.add(name.toLowerCase());
    return name;
  });
}

export const MAX_TEXT_BYTES = 254;

/** `text` as UTF-8 of at most `max` bytes, cut before a character that would not fit. */
export function cutUtf8(text: string, max: number): { bytes: Buffer; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return { bytes, cut: false };
  let end = max;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return { bytes: bytes.subarray(0, end), cut: true };
}

/** The dBASE III header and field descriptors (the record count patched in at the end). */
export function dbfHeader(fields: readonly DbfField[], records: number, now: Date): Buffer {
  const headerLength = 32 + fields.length * 32 + 1;
  const recordLength = 1 + fields.reduce((n, f) => n + f.length, 0);
  const b = Buffer.alloc(headerLength);
  b.writeUInt8(0x03, 0);
  b.writeUInt8(now.getUTCFullYear() - 1900, 1);
  b.writeUInt8(now.getUTCMonth() + 1, 2);
  b.writeUInt8(now.getUTCDate(), 3);
  b.writeUInt32LE(records, 4);
  b.writeUInt16LE(headerLength, 8);
  b.writeUInt16LE(recordLength, 10);
  fields.forEach((f, k) => {
    const o = 32 + k * 32;
    b.write(f.name, o, 10, 'ascii');
    b.write(f.type, o + 11, 1, 'ascii');
    b.writeUInt8(f.length, o + 16);
    b.writeUInt8(f.decimals, o + 17);
  });
  b.writeUInt8(0x0d, headerLength - 1);
  return b;
}

export const dbfRecordLength = (fields: readonly DbfField[]): number =>
  1 + fields.reduce((n, f) => n + f.length, 0);

/** The 100-byte main-file header shared by .shp and .shx (point shapes, the box in degrees). */
export function shpHeader(fileBytes: number, box: readonly [number, number, number, number]): Buffer {
  const b = Buffer.alloc(100);
  b.writeInt32BE(9994, 0);
  b.writeInt32BE(fileBytes / 2, 24);
  b.writeInt32LE(1000, 28);
  b.writeInt32LE(1, 32); // Point
  box.forEach((v, k) => b.writeDoubleLE(v, 36 + k * 8));
  return b;
}

/** Bytes of one point record in the .shp: 8 header + 20 content. */
export const SHP_RECORD = 28;
