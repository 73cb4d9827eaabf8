/**
 * A file written in chunks under a temporary name, renamed into place only when complete:
 * `finish()` closes it still under that name (an export job then writes its manifest, and
 * publishes both together: `publishTogether`), `commit()` renames it (the destination then appears
 * whole), `abort()` removes it (a cancelled or failed export leaves nothing behind). Writes honour
 * backpressure, so memory stays flat however fast rows are produced.
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

  /** Flushes and closes the file, still under its temporary name; returns its size in bytes. */
  async finish(): Promise<number> {
    if (!this.closed) {
      this.closed = true;
      this.stream.end();
      await Promise.race([once(this.stream, 'close'), this.failure]);
    }
    return this.stream.bytesWritten;
  }

  /** Flushes, closes and renames the file into place; returns its size in bytes. */
  async commit(): Promise<number> {
    const bytes = await this.finish();
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

/** A complete file under its temporary name, and where it goes. */
export type Finished = { partPath: string; path: string };

/**
 * Renames complete files into place together: if any rename fails, the ones already renamed and
 * every temporary file are removed, so the files appear all or none (an export's data file never
 * stands without its manifest).
 */
export async function publishTogether(files: readonly Finished[]): Promise<void> {
  const done: string[] = [];
  try {
    for (const f of files) {
      await rename(f.partPath, f.path);
      done.push(f.path);
    }
  } catch (error) {
    await removeAll(files, done);
    throw error;
  }
}

/** Removes the temporary files (and `published` ones): a failed or cancelled export leaves nothing. */
export async function removeAll(
  files: readonly Finished[],
  published: readonly string[] = [],
): Promise<void> {
  await Promise.all([
    ...files.map((f) => rm(f.partPath, { force: true })),
    ...published.map((p) => rm(p, { force: true })),
  ]);
}
