/**
 * Lines of text written straight into one Buffer (UTF-8), for a batch of an export: no long string
 * is ever built (a batch's text as one string is a large object that only a full GC frees, which
 * lets the heap grow by tens of MB over a big export), and the Buffer goes to the file as is.
 */
export class ByteLines {
  private buf: Buffer;
  private at = 0;

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(1024, capacity)); // never a pooled slab: it may be transferred
  }

  add(line: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.at + line.length * 3 > this.buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.at + line.length * 3));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    this.at += this.buf.write(line, this.at, 'utf8');
  }

  /** The bytes written (a view of a Buffer of its own: its ArrayBuffer may be transferred). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}
