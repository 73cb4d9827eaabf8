import { describe, expect, it } from 'vitest';
import { BufferPool, ByteLines } from './byteLines';

describe('lines written into a Buffer', () => {
  it('gives the UTF-8 of the lines, growing past its capacity and reusing a returned buffer', () => {
    const lines = ['cdid,type\r\n', 'ü 北 "x" 🚓\r\n', `${'long,'.repeat(2000)}\r\n`];
    const first = new ByteLines(16);
    for (const l of lines) first.add(l);
    const bytes = first.bytes();
    expect(bytes.toString('utf8')).toBe(lines.join(''));
    expect(bytes.byteOffset).toBe(0);

    const pool = new BufferPool(2);
    pool.give(bytes.buffer as ArrayBuffer);
    const reused = pool.take() as ArrayBuffer;
    expect(reused).toBe(bytes.buffer);
    const second = new ByteLines(1024, reused);
    second.add('again\r\n');
    expect(second.bytes().toString('utf8')).toBe('again\r\n');
    expect(second.bytes().buffer).toBe(reused); // written into the returned buffer, not a new one
    expect(pool.take()).toBeUndefined();
    // A buffer too small for the capacity asked is not used.
    const small = new ByteLines(1_000_000, new ArrayBuffer(10));
    small.add('x');
    expect(small.bytes().buffer.byteLength).toBeGreaterThanOrEqual(1_000_000);
  });
});
