/**
 * The preview's checked rows, kept for the run in a compact binary form (off the JS heap: a few
 * large Buffers, no object per row), so that the run writes them without reading and checking the
 * file again. A row: cdid, lat, lon, occurred_utc, first_seen, last_seen as float64 (NaN: none),
 * local hour, weekday, removed, time flag and whether there is a description as bytes, then the
 * texts (type, address, link, date_raw, occurred_local, timezone, local_day[, description]): each
 * one's length in UTF-16 units (uint32), the byte length of them all, and their UTF-8 together
 * (one write and one read per row: the texts are cut apart by their lengths).
 */
import type { ImportRow } from './normalize';

const BLOCK = 8 << 20;
const FLAGS: (string | null)[] = [null, 'ambiguous', 'nonexistent'];
/** Rows per chunk handed to the merge. */
const ROWS_PER_CHUNK = 4096;

export class StagedRows {
  private readonly blocks: { buf: Buffer; used: number }[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private at = 0;
  /** Bytes held. */
  bytes = 0;
  count = 0;

  add(r: ImportRow): void {
    const desc = r[14];
    // The most a row can take: fixed part, then per text 4 bytes and 3 per UTF-16 unit.
    const all =
      desc === null
        ? r[1] + r[2] + r[5] + r[6] + r[7] + r[8] + r[11]
        : r[1] + r[2] + r[5] + r[6] + r[7] + r[8] + r[11] + desc;
    const need = 53 + 4 * 9 + 3 * all.length;
    if (this.at + need > this.buf.length) this.next(need);
    const b = this.buf;
    let o = this.at;
    const v = this.view;
    v.setFloat64(o, r[0], true);
    v.setFloat64(o + 8, r[3], true);
    v.setFloat64(o + 16, r[4], true);
    v.setFloat64(o + 24, r[9], true);
    v.setFloat64(o + 32, r[15] ?? Number.NaN, true);
    v.setFloat64(o + 40, r[16] ?? Number.NaN, true);
    o += 48;
    b[o++] = r[12];
    b[o++] = r[13];
    b[o++] = r[17];
    b[o++] = r[10] === null ? 0 : r[10] === 'ambiguous' ? 1 : 2;
    b[o++] = desc === null ? 0 : 1;
    o = b.writeUInt32LE(r[1].length, o);
    o = b.writeUInt32LE(r[2].length, o);
    o = b.writeUInt32LE(r[5].length, o);
    o = b.writeUInt32LE(r[6].length, o);
    o = b.writeUInt32LE(r[7].length, o);
    o = b.writeUInt32LE(r[8].length, o);
    o = b.writeUInt32LE(r[11].length, o);
    if (desc !== null) o = b.writeUInt32LE(desc.length, o);
    const n = b.write(all, o + 4, 'utf8');
    b.writeUInt32LE(n, o);
    o += 4 + n;
    this.bytes += o - this.at;
    this.at = o;
    this.count++;
    (this.blocks[this.blocks.length - 1] as { used: number }).used = o;
  }

  /** The rows in the order added, a chunk at a time; `onRow` hears how many were read so far. */
  *chunks(onRows: (done: number) => void = () => undefined): Generator<ImportRow[]> {
    let done = 0;
    for (const { buf: b, used } of this.blocks) {
      const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
      let o = 0;
      let out: ImportRow[] = [];
      while (o < used) {
        const cdid = v.getFloat64(o, true);
        const lat = v.getFloat64(o + 8, true);
        const lon = v.getFloat64(o + 16, true);
        const utc = v.getFloat64(o + 24, true);
        const first = v.getFloat64(o + 32, true);
        const last = v.getFloat64(o + 40, true);
        const hour = b[o + 48] as number;
        const weekday = b[o + 49] as number;
        const removed = b[o + 50] as number;
        const flag = FLAGS[b[o + 51] as number] ?? null;
        const hasDesc = b[o + 52] === 1;
        o += 53;
        const texts = hasDesc ? 8 : 7;
        const at = o + 4 * texts;
        const n = b.readUInt32LE(at);
        const all = b.toString('utf8', at + 4, at + 4 + n);
        const t: string[] = [];
        for (let k = 0, from = 0; k < texts; k++) {
          const len = b.readUInt32LE(o + 4 * k);
          t.push(all.slice(from, from + len));
          from += len;
        }
        o = at + 4 + n;
        out.push([
          cdid,
          t[0] as string,
          t[1] as string,
          lat,
          lon,
          t[2] as string,
          t[3] as string,
          t[4] as string,
          t[5] as string,
          utc,
          flag,
          t[6] as string,
          hour,
          weekday,
          hasDesc ? (t[7] as string) : null,
          Number.isNaN(first) ? null : first,
          Number.isNaN(last) ? null : last,
          removed,
        ]);
        if (out.length === ROWS_PER_CHUNK) {
          done += out.length;
          onRows(done);
          yield out;
          out = [];
        }
      }
      if (out.length > 0) {
        done += out.length;
        onRows(done);
        yield out;
      }
    }
  }

  private next(need: number): void {
    this.buf = Buffer.allocUnsafeSlow(Math.max(BLOCK, need));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.at = 0;
    this.blocks.push({ buf: this.buf, used: 0 });
  }
}
