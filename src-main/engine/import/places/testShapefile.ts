/**
 * Tests only: a PolyLine Shapefile (.shp, .shx-less) and its .dbf written byte by byte as the
 * format's specification lays them out (ESRI Shapefile Technical Description, 1998; dBASE III), so
 * a test can hand the locator a TIGER/Line-shaped file of centre lines it wrote itself.
 */
export type LineRecord = { parts: [number, number][][]; fields: Record<string, string> };

/** The .shp of PolyLine (type 3) records, X = longitude, Y = latitude. */
export function polylineShp(records: LineRecord[]): Buffer {
  const bodies = records.map((r) => {
    const points = r.parts.flat();
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const b = Buffer.alloc(44 + 4 * r.parts.length + 16 * points.length);
    b.writeInt32LE(3, 0);
    b.writeDoubleLE(Math.min(...xs), 4);
    b.writeDoubleLE(Math.min(...ys), 12);
    b.writeDoubleLE(Math.max(...xs), 20);
    b.writeDoubleLE(Math.max(...ys), 28);
    b.writeInt32LE(r.parts.length, 36);
    b.writeInt32LE(points.length, 40);
    let start = 0;
    r.parts.forEach((part, k) => {
      b.writeInt32LE(start, 44 + 4 * k);
      start += part.length;
    });
    const at = 44 + 4 * r.parts.length;
    points.forEach((p, k) => {
      b.writeDoubleLE(p[0], at + 16 * k);
      b.writeDoubleLE(p[1], at + 16 * k + 8);
    });
    return b;
  });
  const length = 100 + bodies.reduce((n, b) => n + 8 + b.length, 0);
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(length / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(3, 32);
  const out: Buffer[] = [header];
  bodies.forEach((b, k) => {
    const rh = Buffer.alloc(8);
    rh.writeInt32BE(k + 1, 0);
    rh.writeInt32BE(b.length / 2, 4);
    out.push(rh, b);
  });
  return Buffer.concat(out);
}

/** A dBASE III .dbf of character fields (each as wide as its longest value). */
export function characterDbf(names: string[], rows: Record<string, string>[]): Buffer {
  const widths = names.map((n) => Math.max(1, ...rows.map((r) => Buffer.byteLength(r[n] ?? ''))));
  const headerLen = 32 + 32 * names.length + 1;
  const recordLen = 1 + widths.reduce((a, b) => a + b, 0);
  const b = Buffer.alloc(headerLen + recordLen * rows.length + 1, 0x20);
  b.fill(0, 0, headerLen);
  b[0] = 0x03;
  b.writeUInt32LE(rows.length, 4);
  b.writeUInt16LE(headerLen, 8);
  b.writeUInt16LE(recordLen, 10);
  names.forEach((n, k) => {
    const at = 32 + 32 * k;
    b.write(n.slice(0, 10), at, 'latin1');
    b[at + 11] = 'C'.charCodeAt(0);
    b[at + 16] = widths[k] as number;
  });
  b[headerLen - 1] = 0x0d;
  rows.forEach((r, i) => {
    let at = headerLen + i * recordLen + 1;
    names.forEach((n, k) => {
      b.write(r[n] ?? '', at, 'latin1');
      at += widths[k] as number;
    });
  });
  b[b.length - 1] = 0x1a;
  return b;
}
