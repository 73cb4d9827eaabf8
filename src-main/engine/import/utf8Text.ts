/**
 * Import files as UTF-8 text, chunk by chunk, refusing bytes that are not UTF-8 instead of reading
 * them as U+FFFD. The decoder is the platform's (TextDecoder, fatal): the fast path costs what
 * `toString('utf8')` does, and a chunk of ASCII bytes (most files) with nothing pending is read as
 * Latin-1, several times faster. Only when the decoder refuses a chunk is the chunk scanned byte by
 * byte, to name the offset of the first bad byte in the file and give back the text before it (the
 * caller reads that text to tell which row the byte is in).
 */

import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import { decodeWindows1252 } from '../files/windows1252';

/** Bytes that are not UTF-8 at `offset` (from the file's start); `before`: the chunk's text up to them. */
export class InvalidUtf8 extends Error {
  constructor(
    readonly offset: number,
    readonly before: string,
  ) {
    super(`Not UTF-8 at byte ${offset}.`);
    this.name = 'InvalidUtf8';
  }
}

export class Utf8Chunks {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Bytes of the file before the current chunk. */
  private offset = 0;
  /** The previous chunk's last bytes that begin a character the current chunk ends. */
  private carry: Uint8Array = new Uint8Array(0);

  /** The text of the next chunk of bytes (`last`: the file ends with it); throws InvalidUtf8. */
  decode(bytes: Uint8Array, last = false): string {
    if (this.carry.length === 0 && isAscii(bytes)) {
      // ASCII is its own UTF-8 and nothing is pending: read as Latin-1 (several times faster; the
      // decoder's state stays empty, as it would after these bytes).
      this.offset += bytes.length;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    }
    try {
      const text = this.decoder.decode(bytes, { stream: !last });
      // A character unfinished at the end starts within its last 3 bytes; short chunks join the carry.
      const tail = bytes.length >= 4 || this.carry.length === 0 ? bytes : joined(this.carry, bytes);
      this.carry = tail.subarray(tail.length - unfinishedTail(tail));
      this.offset += bytes.length;
      return text;
    } catch {
      const all = joined(this.carry, bytes);
      const bad = firstInvalid(all, last);
      // The carried bytes were already counted in offset; the text before them was already given.
      const before = new TextDecoder('utf-8').decode(all.subarray(0, bad));
      throw new InvalidUtf8(this.offset - this.carry.length + bad, before);
    }
  }

  /** The end of the file: a character cut off at the end is refused too. */
  end(): string {
    return this.decode(new Uint8Array(0), true);
  }
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}

/** How many of the last bytes (0..3) start a character that the bytes end before it is complete. */
function unfinishedTail(b: Uint8Array): number {
  for (let k = 1; k <= 3 && k <= b.length; k++) {
    const c = b[b.length - k] as number;
    if ((c & 0xc0) === 0x80) continue;
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > k ? k : 0;
  }
  return 0;
}

/** The index of the first byte that does not begin a well-formed UTF-8 character (RFC 3629). */
export function firstInvalid(b: Uint8Array, last: boolean): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // beyond U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return last ? i : n;
      const d = b[i + k] as number;
      if (d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return n;
}

/**
 * A file's text encoding, from its first bytes: UTF-8, unless they are not UTF-8 and hold no
 * UTF-8 character at all — then Windows-1252, what Excel's "CSV (Comma delimited)" and many
 * records systems write on Windows (`Peña` as the byte E9, never a valid UTF-8 sequence around
 * it). A file with UTF-8 characters and a bad byte is UTF-8 with a bad byte: refused, named.
 */
export type TextEncoding = 'utf-8' | 'windows-1252';

/** A well-formed UTF-8 character of two to four bytes, read as Latin-1 text. */
const UTF8_CHARACTER = /[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}/;

export function encodingOf(head: Uint8Array): TextEncoding {
  // The last character may be cut by the head's end.
  const whole = head.subarray(0, head.length - unfinishedTail(head));
  if (isUtf8(whole)) return 'utf-8';
  const latin = Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString('latin1');
  return UTF8_CHARACTER.test(latin) ? 'utf-8' : 'windows-1252';
}

/** The chunk reader for an encoding: UTF-8 (Utf8Chunks, refusing bad bytes), or Windows-1252 (every byte is a character). */
export function textChunks(encoding: TextEncoding | undefined): Pick<Utf8Chunks, 'decode' | 'end'> {
  return encoding === 'windows-1252' ? { decode: decodeWindows1252, end: () => '' } : new Utf8Chunks();
}
