/**
 * JSON for the web host: the contract's values as text, typed arrays included.
 *
 * Electron IPC structured-clones typed arrays natively; JSON cannot hold them. `encodeWire` writes
 * each typed array as `{ "$typed": "Float32Array", "b64": "…" }` (its bytes, little-endian as every
 * platform we run on, in base64) and `decodeWire` turns those objects back into typed arrays.
 * A plain object with exactly the keys `$typed` and `b64` is therefore reserved on the wire.
 *
 * Pure TypeScript over TextEncoder/TextDecoder (in Node, browsers and workers alike): no Buffer,
 * no btoa/atob string juggling. A 1M-element Float64Array (8 MB) encodes in a few tens of ms.
 */

const TYPED = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type TypedName = keyof typeof TYPED;
export type TypedArray = InstanceType<(typeof TYPED)[TypedName]>;

export type WireTyped = { $typed: TypedName; b64: string };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 61; // '='
// Pair tables: 12 bits ↔ two base64 characters as one little-endian 16-bit word (half the lookups).
const ENC = new Uint8Array(64);
const DEC = new Int16Array(256).fill(-1);
const ENC2 = new Uint16Array(4096);
const DEC2 = new Int32Array(65536).fill(-1);
for (let i = 0; i < 64; i++) {
  ENC[i] = ALPHABET.charCodeAt(i);
  DEC[ALPHABET.charCodeAt(i)] = i;
}
for (let i = 0; i < 4096; i++) {
  ENC2[i] = ALPHABET.charCodeAt(i >> 6) | (ALPHABET.charCodeAt(i & 63) << 8);
  DEC2[ENC2[i] as number] = i;
}
const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

/** Standard base64 (RFC 4648, padded) of `bytes`. */
export function bytesToBase64(bytes: Uint8Array): string {
  return textDecoder.decode(base64Bytes(bytes));
}

/** The ASCII bytes of `bytesToBase64(bytes)`, in a buffer of their own (transferable, no string). */
export function base64Bytes(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  base64Into(bytes, out, 0, bytes.length);
  return out;
}

/**
 * Writes the base64 of `bytes[start, end)` into its place in `out` (`base64Bytes`' buffer):
 * `start` a multiple of 3, and `end` too unless it is the end (the padding is written there).
 */
function base64Into(bytes: Uint8Array, out: Uint8Array, start: number, end: number): void {
  const n = bytes.length;
  const out16 = new Uint16Array(out.buffer, out.byteOffset, out.length >> 1);
  const whole = Math.min(end, n - (n % 3));
  let j = (start / 3) * 2;
  for (let i = start; i < whole; i += 3) {
    const t = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out16[j] = ENC2[t >>> 12] as number;
    out16[j + 1] = ENC2[t & 4095] as number;
    j += 2;
  }
  if (end === n && n > whole) {
    const b1 = n - whole === 2 ? (bytes[whole + 1] as number) : 0;
    const t = ((bytes[whole] as number) << 16) | (b1 << 8);
    const k = j * 2;
    out[k] = ENC[t >>> 18] as number;
    out[k + 1] = ENC[(t >>> 12) & 63] as number;
    out[k + 2] = n - whole === 2 ? (ENC[(t >>> 6) & 63] as number) : PAD;
    out[k + 3] = PAD;
  }
}

/** The bytes of standard padded base64; throws on anything else. */
export function base64ToBytes(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Error('Invalid base64: length is not a multiple of 4.');
  const src = new Uint8Array(text.length);
  const { read, written } = textEncoder.encodeInto(text, src);
  if (read !== text.length || written !== text.length)
    throw new Error('Invalid base64: unexpected character.');
  let pad = 0;
  if (src.length > 0 && src[src.length - 1] === PAD) pad = src[src.length - 2] === PAD ? 2 : 1;
  const out = new Uint8Array((src.length / 4) * 3 - pad);
  const src16 = new Uint16Array(src.buffer, 0, src.length >> 1);
  const whole16 = (src.length - (pad ? 4 : 0)) >> 1;
  let bad = 0;
  let j = 0;
  for (let i = 0; i < whole16; i += 2) {
    const hi = DEC2[src16[i] as number] as number;
    const lo = DEC2[src16[i + 1] as number] as number;
    bad |= hi | lo;
    const t = (hi << 12) | lo;
    out[j] = t >>> 16;
    out[j + 1] = (t >>> 8) & 255;
    out[j + 2] = t & 255;
    j += 3;
  }
  if (pad) {
    const k = whole16 * 2;
    const a = DEC[src[k] as number] as number;
    const b = DEC[src[k + 1] as number] as number;
    const c = pad === 1 ? (DEC[src[k + 2] as number] as number) : 0;
    bad |= a | b | c;
    const t = (a << 18) | (b << 12) | (c << 6);
    out[j] = t >>> 16;
    if (pad === 1) out[j + 1] = (t >>> 8) & 255;
  }
  if (bad < 0) throw new Error('Invalid base64: unexpected character.');
  return out;
}

function typedName(value: ArrayBufferView): TypedName | null {
  for (const name of Object.keys(TYPED) as TypedName[]) if (value instanceof TYPED[name]) return name;
  return null;
}

function isWireTyped(value: unknown): value is WireTyped {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.$typed === 'string' &&
    typeof v.b64 === 'string' &&
    Object.prototype.hasOwnProperty.call(TYPED, v.$typed) &&
    Object.keys(v).length === 2
  );
}

/** The wire form of one typed array (only the view's own bytes). */
export function encodeTyped(value: TypedArray): WireTyped {
  const name = typedName(value);
  if (!name) throw new Error('Not a typed array.');
  return {
    $typed: name,
    b64: bytesToBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)),
  };
}

/** The typed array of a wire form; throws when the byte count does not fit the element size. */
export function decodeTyped(wire: WireTyped): TypedArray {
  const Ctor = TYPED[wire.$typed];
  const bytes = base64ToBytes(wire.b64);
  if (bytes.byteLength % Ctor.BYTES_PER_ELEMENT !== 0) {
    throw new Error(`Invalid ${wire.$typed} on the wire: ${bytes.byteLength} bytes.`);
  }
  return new Ctor(bytes.buffer as ArrayBuffer, 0, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}

/**
 * A typed array's wire form with its base64 still as ASCII bytes (`toWireValue`): written to a
 * socket as they are (`encodeWireParts`), never made into a string.
 */
export type WireBytes = { $typed: TypedName; b64: Uint8Array };

function isWireBytes(value: unknown): value is WireBytes {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.$typed === 'string' && v.b64 instanceof Uint8Array && Object.keys(v).length === 2;
}

/**
 * `value` with every typed array replaced by its wire form with the base64 as bytes (a copy; plain
 * values shared). The web host's engine worker answers this way: the base64 work is done off the
 * host's event loop, and each base64 buffer is pushed to `transfer` so it crosses to the host
 * without a copy. `encodeWire` and `encodeWireParts` write it as they write the typed array.
 */
export function toWireValue(value: unknown, transfer?: ArrayBuffer[]): unknown {
  return wireValue(value, transfer, (bytes) => base64Bytes(bytes));
}

/** Bytes of base64 input written per slice by `toWireValueInSlices` (~10 ms of work). */
const SLICE_BYTES = 3 * 1024 * 1024;

/**
 * `toWireValue`, its base64 written in slices of a few MB with `pause` awaited between them: a
 * layer's 32 MB of coordinates held the engine thread 60–300 ms in one stretch.
 */
export async function toWireValueInSlices(
  value: unknown,
  transfer: ArrayBuffer[],
  pause: () => Promise<void>,
): Promise<unknown> {
  const pending: { bytes: Uint8Array; out: Uint8Array }[] = [];
  const wire = wireValue(value, transfer, (bytes) => {
    const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
    if (bytes.length <= SLICE_BYTES) base64Into(bytes, out, 0, bytes.length);
    else pending.push({ bytes, out });
    return out;
  });
  for (const { bytes, out } of pending)
    for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
      await pause();
      base64Into(bytes, out, start, Math.min(start + SLICE_BYTES, bytes.length));
    }
  return wire;
}

function wireValue(
  value: unknown,
  transfer: ArrayBuffer[] | undefined,
  encode: (bytes: Uint8Array) => Uint8Array,
): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const name = typedName(value);
    if (!name) throw new Error('Not a typed array.');
    const b64 = encode(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    transfer?.push(b64.buffer as ArrayBuffer);
    return { $typed: name, b64 } satisfies WireBytes;
  }
  if (Array.isArray(value))
    return value.some((v) => typeof v === 'object' && v !== null)
      ? value.map((v: unknown) => wireValue(v, transfer, encode))
      : value;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = wireValue(v, transfer, encode);
  return out;
}

/** JSON text of `value`, typed arrays written as base64 (see the file comment). */
export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    ArrayBuffer.isView(v) && !(v instanceof DataView)
      ? encodeTyped(v as TypedArray)
      : isWireBytes(v)
        ? { $typed: v.$typed, b64: textDecoder.decode(v.b64) }
        : v,
  );
}

/**
 * The bytes of `encodeWire(value)` as consecutive chunks: UTF-8 of the JSON around each base64,
 * and each base64 of a `toWireValue` answer as the very bytes it arrived in (no string, no copy).
 * The host writes them in order; a 1M-point answer then costs its event loop almost nothing.
 */
export function encodeWireParts(value: unknown): Uint8Array[] {
  const found: Uint8Array[] = [];
  // A fresh random mark per answer stands in for each base64: text cannot guess it.
  const mark = `~wire${Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('')}~`;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return encodeTyped(v as TypedArray);
    if (!isWireBytes(v)) return v;
    found.push(v.b64);
    return { $typed: v.$typed, b64: `${mark}${found.length - 1}${mark}` };
  });
  if (!found.length) return [textEncoder.encode(text)];
  const parts: Uint8Array[] = [];
  const pieces = text.split(mark);
  // pieces alternate: text, index, text, index, …, text
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 0) parts.push(textEncoder.encode(pieces[i] as string));
    else parts.push(found[Number(pieces[i])] as Uint8Array);
  }
  return parts;
}

/** The value of `encodeWire` text, typed arrays restored. */
export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => (isWireTyped(v) ? decodeTyped(v) : v));
}
