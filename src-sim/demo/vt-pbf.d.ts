/** The part of vt-pbf (no published types) the demo basemap uses. */
declare module 'vt-pbf' {
  export function fromGeojsonVt(
    layers: Record<string, { features: unknown[] }>,
    options?: { version?: number; extent?: number },
  ): Uint8Array;
}

/** pbf 3 (hoisted for vt-pbf) has no types; tests read tiles with it. */
declare module 'pbf' {
  export default class Pbf {
    constructor(buf?: Uint8Array);
  }
}
