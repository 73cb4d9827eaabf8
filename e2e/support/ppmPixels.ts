/**
 * Counting a rendered page's basemap pixels: a PDF page or a map shot written by pdftoppm/pnmtools
 * as a binary PPM (P6), read here without an image library.
 */

/** Pixels of a binary PPM (P6) that are neutral greys between #c4c4c4 and #e0e0e0 (the basemap's land and roads). */
export function greyPixels(ppm: Buffer): number {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a binary PPM');
  let n = 0;
  for (let i = header[0].length; i + 2 < ppm.length; i += 3) {
    const [r, g, b] = [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!];
    if (Math.min(r, g, b) >= 0xc4 && Math.max(r, g, b) <= 0xe0 && Math.max(r, g, b) - Math.min(r, g, b) <= 8)
      n++;
  }
  return n;
}
