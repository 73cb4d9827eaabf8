/**
 * Colours and classes of the analysis layers: hot spot bins (±3/±2/±1 at 99/95/90 % confidence,
 * red hot, blue cold, as ArcGIS's Hot Spot Analysis), and kernel density as a graduated raster in
 * five equal classes of incidents per square mile (transparent where there is none, or no data).
 */

export const BINS = [3, 2, 1, 0, -1, -2, -3] as const;

export const BIN_COLOURS: Record<number, string> = {
  3: '#b2182b',
  2: '#ef8a62',
  1: '#fddbc7',
  0: '#bdbdbd',
  [-1]: '#d1e5f0',
  [-2]: '#67a9cf',
  [-3]: '#2166ac',
};

export const BIN_LABELS: Record<number, string> = {
  3: 'Hot spot, 99 % confidence',
  2: 'Hot spot, 95 % confidence',
  1: 'Hot spot, 90 % confidence',
  0: 'Not significant',
  [-1]: 'Cold spot, 90 % confidence',
  [-2]: 'Cold spot, 95 % confidence',
  [-3]: 'Cold spot, 99 % confidence',
};

export const binColour = (bin: number): string => BIN_COLOURS[bin] ?? (BIN_COLOURS[0] as string);

/** Five sequential colours, light to dark (ColorBrewer YlOrRd). */
export const KDE_RAMP: [number, number, number][] = [
  [255, 255, 178],
  [254, 204, 92],
  [253, 141, 60],
  [240, 59, 32],
  [189, 0, 38],
];

/** The upper bounds of the five classes (equal intervals up to the highest density). */
export function kdeBreaks(max: number): number[] {
  return KDE_RAMP.map((_, k) => (max * (k + 1)) / KDE_RAMP.length);
}

/** The class of a density (0…4), or -1 for none (0 or no data). */
export function kdeClass(value: number, max: number): number {
  if (!(value > 0) || !(max > 0)) return -1;
  return Math.min(KDE_RAMP.length - 1, Math.floor((value / max) * KDE_RAMP.length));
}

/** Float32 little-endian values from base64. */
export function decodeFloats(base64: string): Float32Array {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Float32Array(bytes.buffer, 0, bytes.length >> 2);
}

/** RGBA pixels of the raster: each class's colour at 75 % opacity, transparent where none. */
export function kdePixels(values: Float32Array, max: number): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(new ArrayBuffer(values.length * 4));
  for (let i = 0; i < values.length; i++) {
    const k = kdeClass(values[i] as number, max);
    if (k < 0) continue;
    const [r, g, b] = KDE_RAMP[k] as [number, number, number];
    out.set([r, g, b, 190], i * 4);
  }
  return out;
}

/** A density in words for the legend: "12.5", "1,240". */
export function densityText(v: number): string {
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2);
}
