import { describe, expect, it } from 'vitest';
import { InvalidUtf8, Utf8Chunks } from './utf8Text';

/** `bytes` read in pieces of `size`; the text, or where the decoder refused it. */
function read(bytes: Buffer, size: number): string | { offset: number } {
  const u = new Utf8Chunks();
  let text = '';
  try {
    for (let at = 0; at < bytes.length; at += size) text += u.decode(bytes.subarray(at, at + size));
    return text + u.end();
  } catch (error) {
    if (error instanceof InvalidUtf8) return { offset: error.offset };
    throw error;
  }
}

describe('UTF-8 text read in pieces', () => {
  const text = `cdid,address\n${Array.from({ length: 300 }, (_, k) => `${k},${k % 7 === 0 ? 'CAFÉ 北 ✓' : 'MAIN ST'}`).join('\n')}\n`;
  const bytes = Buffer.from(text, 'utf8');

  it('reads ASCII pieces and pieces that split a character alike, at every piece size', () => {
    for (const size of [1, 2, 3, 5, 64, 257, 1000, bytes.length]) expect(read(bytes, size)).toBe(text);
  });

  it('refuses a bad byte after ASCII pieces at its offset in the file, and a character cut off at the end', () => {
    const bad = Buffer.concat([
      Buffer.from('a'.repeat(700)),
      Buffer.from([0xff]),
      Buffer.from('b'.repeat(50)),
    ]);
    for (const size of [1, 64, 256, 701, 2000]) expect(read(bad, size)).toEqual({ offset: 700 });
    // An ASCII piece after a piece that ends inside a character: the character is broken.
    const broken = Buffer.concat([
      Buffer.from('x'.repeat(63)),
      Buffer.from([0xc3]),
      Buffer.from('y'.repeat(64)),
    ]);
    expect(read(broken, 64)).toEqual({ offset: 63 });
    expect(read(Buffer.concat([Buffer.from('z'.repeat(10)), Buffer.from([0xe2, 0x9c])]), 4)).toEqual({
      offset: 10,
    });
  });
});
