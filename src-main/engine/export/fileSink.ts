/**
 * A file written in chunks under a temporary name, renamed into place only when complete:
 * `commit()` renames it (the destination then appears whole), `abort()` removes it (a cancelled
 * or failed export leaves nothing behind). Writes honour backpressure, so memory stays flat
 * however fast rows are produced.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { partPathOf } from './destination';

export class FileSink {
  private readonly stream: WriteStream;
  private readonly failure: Promise<never>;
  private closed = false;
  readonly partPath: string;

  constructor(
    readonly path: string,
    jobId: string,
  ) {
    this.partPath = partPathOf(path, jobId);
    this.stream = createWriteStream(this.partPath, { flags: 'wx', mode: 0o600, highWaterMark: 1 << 20 });
    this.failure = new Promise<never>((_, reject) => this.stream.once('error', reject));
    this.failure.catch(() => undefined); // observed by write/commit; never unhandled
  }

  /** Bytes handed to the file so far. */
  get bytes(): number {
    return this.stream.bytesWritten + this.stream.writableLength;
  }

  /**
   * Appends text (UTF-8) or bytes; resolves once the stream can take more. `onWritten` hears when
   * the file has the data (after which the stream holds no reference to `data`).
   */
  async write(data: string | Uint8Array, onWritten?: () => void): Promise<void> {
    if (data.length === 0) {
      onWritten?.();
      return;
    }
    const written = onWritten ? (error?: Error | null) => error || onWritten() : undefined;
    if (!this.stream.write(data, written)) await Promise.race([once(this.stream, 'drain'), this.failure]);
  }

  /** Flushes, closes and renames the file into place; returns its size in bytes. */
  async commit(): Promise<number> {
    this.closed = true;
    this.stream.end();
    await Promise.race([once(this.stream, 'close'), this.failure]);
    const bytes = this.stream.bytesWritten;
    await rename(this.partPath, this.path);
    return bytes;
  }

  /** Stops writing and removes the partial file. Safe to call at any time, more than once. */
  async abort(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.stream.destroy();
      if (!this.stream.closed) await once(this.stream, 'close').catch(() => undefined);
    }
    await rm(this.partPath, { force: true });
  }
}

/** Writes a small file whole, through a temporary name (for manifests). */
export async function writeFileAtomically(file: string, text: string, jobId: string): Promise<void> {
  const part = partPathOf(file, jobId);
  try {
    await writeFile(part, text, { mode: 0o600 });
    await rename(part, file);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}
