/**
 * Windows-1252 ("ANSI", what Windows programs and older GIS write: a .dbf with a `.cpg` of `1252`
 * or none) decoded by hand. Node's TextDecoder reads the labels windows-1252, cp1252 and latin1 as
 * ISO-8859-1 in the Node versions this runs on, so 0x80–0x9F — the dashes, curly quotes, € and Œ
 * of Windows text — came out as invisible control characters ("José – Peña" as "José \u0096 Peña").
 * Five bytes have no character in Windows-1252 and stay as the control character of their value,
 * as the WHATWG decoder keeps them.
 */

/** The characters of 0x80–0x9F. */
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

const C1 = /[\u0080-\u009f]/g;

export function decodeWindows1252(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  C1.lastIndex = 0;
  return C1.test(text) ? text.replace(C1, (c) => HIGH[c.charCodeAt(0) - 0x80] as string) : text;
}
