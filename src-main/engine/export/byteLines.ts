/**
 * Lines of text written straight into one Buffer (UTF-8), for a batch of an export: no long string
 * is ever built (a batch's text as one string is a large object that only a full GC frees, which
 * lets the heap grow by tens of MB over a big export), and the Buffer goes to the file as is. Once
 * the file has taken a batch's bytes, their ArrayBuffer comes back for a later batch
 * (`BufferPool`), so a long export keeps reusing the same few instead of leaving hundreds of dead
 * ones for the garbage collector.
 */
/** Characters gathered before a write into the Buffer (a Buffer.write per line costs more than the line). */
const FLUSH_CHARS = 16_384;

export class ByteLines {
  private buf: Buffer;
  private at = 0;

  /** Writes into `reuse` when given and big enough for `capacity` bytes, else into a new Buffer. */
  constructor(capacity: number, reuse?: ArrayBuffer) {
    const size = Math.max(1024, capacity);
    // Never a pooled slab: the ArrayBuffer may be transferred to another thread.
    this.buf = reuse && reuse.byteLength >= size ? Buffer.from(reuse) : Buffer.allocUnsafeSlow(size);
  }

  /** Lines are gathered into a short string (young, cheap) and written a few dozen at a time. */
  private pending = '';

  add(line: string): void {
    this.pending += line;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.at + text.length * 3 > this.buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.at + text.length * 3));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  /** The bytes written: a view of an ArrayBuffer of their own (it may be transferred or reused). */
  bytes(): Buffer {
    if (this.pending) this.flush();
    return this.buf.subarray(0, this.at);
  }
}

/** A few ArrayBuffers waiting to be written into again. */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly max = 8) {}

  take(): ArrayBuffer | undefined {
    return this.free.pop();
  }

  give(buffer: ArrayBuffer): void {
    if (this.free.length < this.max && buffer.byteLength > 0) this.free.push(buffer);
  }
}
