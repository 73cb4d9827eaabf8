import { describe, expect, it } from 'vitest';
import { binColour, decodeFloats, kdeBreaks, kdeClass, kdePixels } from './palette';

describe('analysis palette', () => {
  it('colours hot bins red and cold bins blue, unknown bins as not significant', () => {
    expect(binColour(3)).toBe('#b2182b');
    expect(binColour(-3)).toBe('#2166ac');
    expect(binColour(7)).toBe(binColour(0));
  });

  it('puts densities in five equal classes up to the highest, none for 0', () => {
    expect(kdeBreaks(50)).toEqual([10, 20, 30, 40, 50]);
    expect(kdeClass(0, 50)).toBe(-1);
    expect(kdeClass(9.99, 50)).toBe(0);
    expect(kdeClass(10, 50)).toBe(1);
    expect(kdeClass(50, 50)).toBe(4);
  });

  it('decodes the engine’s base64 raster and paints no-data transparent', () => {
    const values = new Float32Array([0, 5, 50]);
    const base64 = Buffer.from(values.buffer).toString('base64');
    const decoded = decodeFloats(base64);
    expect([...decoded]).toEqual([0, 5, 50]);
    const px = kdePixels(decoded, 50);
    expect(px[3]).toBe(0);
    expect(px[7]).toBeGreaterThan(0);
    expect([...px.slice(8, 11)]).toEqual([189, 0, 38]);
  });
});
