import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  decodeWire,
  encodeWire,
  encodeWireParts,
  toWireValue,
  toWireValueInSlices,
} from './wire';

const sameBytes = (a: ArrayBufferView, b: ArrayBufferView): boolean => {
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
};
const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

describe('base64', () => {
  it('matches the standard encoding for every tail length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 13) & 255);
      const b64 = bytesToBase64(bytes);
      expect(b64).toBe(btoa(latin1(bytes)));
      expect(base64ToBytes(b64)).toEqual(bytes);
    }
  });

  it('rejects malformed text', () => {
    expect(() => base64ToBytes('abc')).toThrow(/multiple of 4/);
    expect(() => base64ToBytes('ab!d')).toThrow(/unexpected character/);
    expect(() => base64ToBytes('a=bc')).toThrow(/unexpected character/);
    expect(() => base64ToBytes('é===')).toThrow();
  });
});

describe('encodeWire / decodeWire', () => {
  it('round-trips every typed array kind inside nested values', () => {
    const value = {
      f64: Float64Array.of(1.5, -0, Number.MAX_SAFE_INTEGER, Number.NaN, Infinity),
      f32: Float32Array.of(41.878, -87.6298),
      i8: Int8Array.of(-128, 127),
      u8: Uint8Array.of(0, 255, 7),
      u8c: Uint8ClampedArray.of(1, 2),
      i16: Int16Array.of(-32768, 32767),
      u16: Uint16Array.of(65535),
      i32: Int32Array.of(-2147483648, 2147483647),
      u32: Uint32Array.of(4294967295),
      i64: BigInt64Array.of(-(2n ** 63n)),
      u64: BigUint64Array.of(2n ** 64n - 1n),
      empty: new Float32Array(0),
      list: [{ inner: Uint8Array.of(9) }, 'text', 3, null],
      plain: { $typed: 'nope', b64: 'x', extra: 1 },
    };
    const back = decodeWire(encodeWire(value)) as typeof value;
    expect(back).toEqual(value);
    expect(back.f64).toBeInstanceOf(Float64Array);
    expect(Object.is(back.f64[1], -0)).toBe(true);
    expect(back.u8c).toBeInstanceOf(Uint8ClampedArray);
    expect(back.list[0]).toEqual({ inner: Uint8Array.of(9) });
    expect(back.plain).toEqual({ $typed: 'nope', b64: 'x', extra: 1 });
  });

  it('writes only the bytes of a view, not its whole buffer', () => {
    const buffer = new Float32Array([1, 2, 3, 4, 5]);
    const view = buffer.subarray(1, 3);
    const text = encodeWire({ view });
    expect(JSON.parse(text)).toEqual({
      view: { $typed: 'Float32Array', b64: bytesToBase64(new Uint8Array(view.buffer, 4, 8)) },
    });
    expect((decodeWire(text) as { view: Float32Array }).view).toEqual(Float32Array.of(2, 3));
  });

  it('refuses a byte count that does not fit the element type', () => {
    expect(() => decodeWire('{"a":{"$typed":"Float64Array","b64":"AAAA"}}')).toThrow(/Float64Array/);
  });

  it('round-trips 1M-element map columns quickly', () => {
    const n = 1_000_000;
    const cdid = new Float64Array(n);
    const lat = new Float32Array(n);
    const typeIndex = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      cdid[i] = 10_000_000 + i * 3;
      lat[i] = 41 + (i % 1000) / 1000;
      typeIndex[i] = i % 9;
    }
    const t0 = performance.now();
    const text = encodeWire({ cdid, lat, typeIndex });
    const t1 = performance.now();
    const back = decodeWire(text) as { cdid: Float64Array; lat: Float32Array; typeIndex: Uint8Array };
    const t2 = performance.now();
    expect(back.cdid).toBeInstanceOf(Float64Array);
    expect(
      sameBytes(back.cdid, cdid) && sameBytes(back.lat, lat) && sameBytes(back.typeIndex, typeIndex),
    ).toBe(true);
    console.log(
      `wire 1M (f64+f32+u8, ${(text.length / 1e6).toFixed(1)} MB of text): ` +
        `encode ${(t1 - t0).toFixed(1)} ms, decode ${(t2 - t1).toFixed(1)} ms`,
    );
    expect(t1 - t0).toBeLessThan(1000);
    expect(t2 - t1).toBeLessThan(1000);
  });
});

describe('toWireValue (the web host engine worker answers this way)', () => {
  it('encodes every typed array ahead, so the host writes the same JSON without base64 work', () => {
    const value = {
      ok: true,
      value: {
        count: 2,
        cdid: new Float64Array([1, 2]),
        typeIndex: new Uint8Array([0, 1]),
        types: ['A', 'B'],
      },
      list: [{ lat: new Float32Array([41.5]) }],
    };
    const transfer: ArrayBuffer[] = [];
    const ahead = toWireValue(value, transfer) as { value: { cdid: { $typed: string; b64: unknown } } };
    expect(ahead.value.cdid.$typed).toBe('Float64Array');
    expect(ahead.value.cdid.b64).toBeInstanceOf(Uint8Array); // base64 as bytes, no string made
    expect(transfer).toHaveLength(3); // one buffer per typed array, moved to the host, not copied
    expect(encodeWire(ahead)).toBe(encodeWire(value));
    expect(decodeWire(encodeWire(ahead))).toEqual(value);
    expect(value.value.cdid).toBeInstanceOf(Float64Array); // the original is untouched
  });

  it('writes a big array in slices, pausing between them, to the same bytes as in one go', async () => {
    // 9.6 MB of a layer's coordinates, an odd tail (the padding written by the last slice), a small one.
    const coords = new Float64Array(1_200_000).map((_, i) => 41 + i * 1e-7);
    const tail = new Uint8Array(3 * 1024 * 1024 + 2).map((_, i) => (i * 31) & 255);
    const value = { ok: true, value: { coords, tail, small: Int32Array.of(0, 7, -1) } };
    let pauses = 0;
    const transfer: ArrayBuffer[] = [];
    const sliced = await toWireValueInSlices(value, transfer, async () => {
      pauses++;
    });
    expect(pauses).toBe(4 + 2); // 9.6 MB in 3 MB slices, and the tail's two; the small one at once
    expect(transfer).toHaveLength(3);
    const bytes = (v: unknown) => Buffer.concat(encodeWireParts(v));
    expect(bytes(sliced).equals(bytes(toWireValue(value)))).toBe(true);
    const back = decodeWire(encodeWire(sliced)) as typeof value;
    expect(Buffer.from(back.value.coords.buffer).equals(Buffer.from(coords.buffer))).toBe(true);
    expect(back.value.small).toEqual(value.value.small);
  });
});

describe('encodeWireParts (what the web host writes to its socket)', () => {
  const joined = (parts: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(parts));

  it('writes exactly encodeWire’s text, each base64 as the very bytes the worker made', () => {
    const lat = new Float32Array(100_000).map((_, i) => 41 + i / 1e6);
    const value = { ok: true, value: { lat, typeIndex: new Uint8Array([3, 1]), types: ['Théft', '"q"'] } };
    const ahead = toWireValue(value) as { value: { lat: { b64: Uint8Array } } };
    const parts = encodeWireParts(ahead);
    expect(joined(parts)).toBe(encodeWire(value));
    expect(parts).toContain(ahead.value.lat.b64); // the same object: no copy on the host
    expect(decodeWire(joined(parts))).toEqual(value);
    // Plain typed arrays and answers without any are written too.
    expect(joined(encodeWireParts(value))).toBe(encodeWire(value));
    expect(joined(encodeWireParts({ ok: false, error: { code: 'x' } }))).toBe(
      '{"ok":false,"error":{"code":"x"}}',
    );
  });

  it('never splits text that looks like its placeholder', () => {
    const value = { note: '~wire0~ and ~wireabc~1~wireabc~', b: toWireValue(new Uint8Array([255])) };
    expect(decodeWire(joined(encodeWireParts(value)))).toEqual({
      note: '~wire0~ and ~wireabc~1~wireabc~',
      b: new Uint8Array([255]),
    });
  });
});
