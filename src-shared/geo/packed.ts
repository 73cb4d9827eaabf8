/**
 * Feature geometry packed in typed arrays: one feature's (`PackedGeometry`, how a boundary file's
 * features cross between the engine's threads) and a whole layer's (`PackedLayerGeometry`, how
 * getLayerFeatures answers). Typed arrays cross a thread or the web host's wire as their bytes; 2M
 * corners as nested arrays cost a second and more to copy (one object per corner).
 */
import type { LatLon } from './bbox';
import type { FeatureGeometry, PolygonRings } from './features';

/**
 * `coords`: lat, lon of every corner (or point) in order. `parts` (polygons): the number of
 * polygons, then for each its number of rings, then each ring's number of corners.
 */
export type PackedGeometry = { kind: FeatureGeometry['kind']; coords: Float64Array; parts: Int32Array };

/**
 * Every feature of a layer, one after another, in four arrays: feature k's corners are
 * `coords[2 * cornerStarts[k] .. 2 * cornerStarts[k + 1])` and its `parts` (as PackedGeometry's)
 * `parts[partStarts[k] .. partStarts[k + 1])`; both starts arrays hold one more entry than there
 * are features. Each feature's kind is beside it in the answer.
 */
export type PackedLayerGeometry = {
  coords: Float64Array<ArrayBuffer>;
  parts: Int32Array<ArrayBuffer>;
  cornerStarts: Int32Array<ArrayBuffer>;
  partStarts: Int32Array<ArrayBuffer>;
};

export function packGeometry(g: FeatureGeometry): PackedGeometry {
  const parts: number[] = [];
  let n = 0;
  if (g.kind === 'points') n = g.points.length;
  else {
    parts.push(g.polygons.length);
    for (const rings of g.polygons) {
      parts.push(rings.length);
      for (const ring of rings) {
        parts.push(ring.length);
        n += ring.length;
      }
    }
  }
  const coords = new Float64Array(n * 2);
  let at = 0;
  const put = (c: LatLon) => {
    coords[at++] = c[0];
    coords[at++] = c[1];
  };
  if (g.kind === 'points') g.points.forEach(put);
  else for (const rings of g.polygons) for (const ring of rings) ring.forEach(put);
  return { kind: g.kind, coords, parts: Int32Array.from(parts) };
}

export function unpackGeometry(p: PackedGeometry): FeatureGeometry {
  let at = 0;
  const corners = (count: number): LatLon[] => {
    const out: LatLon[] = new Array(count);
    for (let k = 0; k < count; k++, at += 2) out[k] = [p.coords[at] as number, p.coords[at + 1] as number];
    return out;
  };
  if (p.kind === 'points') return { kind: 'points', points: corners(p.coords.length / 2) };
  let part = 0;
  const next = () => p.parts[part++] as number;
  const polygons: PolygonRings[] = Array.from({ length: next() }, () =>
    Array.from({ length: next() }, () => corners(next())),
  );
  return { kind: 'polygons', polygons };
}

/** The features' packed geometries as one layer's (in their order). */
export function packLayerGeometry(features: readonly Omit<PackedGeometry, 'kind'>[]): PackedLayerGeometry {
  const cornerStarts = new Int32Array(features.length + 1);
  const partStarts = new Int32Array(features.length + 1);
  features.forEach((f, k) => {
    cornerStarts[k + 1] = (cornerStarts[k] as number) + f.coords.length / 2;
    partStarts[k + 1] = (partStarts[k] as number) + f.parts.length;
  });
  const coords = new Float64Array(2 * (cornerStarts[features.length] as number));
  const parts = new Int32Array(partStarts[features.length] as number);
  features.forEach((f, k) => {
    coords.set(f.coords, 2 * (cornerStarts[k] as number));
    parts.set(f.parts, partStarts[k] as number);
  });
  return { coords, parts, cornerStarts, partStarts };
}

/** Feature k's packed geometry: views into the layer's arrays (no copy). */
export function featureOfLayer(
  layer: { coords: Float64Array; parts: Int32Array; cornerStarts: Int32Array; partStarts: Int32Array },
  k: number,
  kind: FeatureGeometry['kind'],
): PackedGeometry {
  const c0 = layer.cornerStarts[k];
  const c1 = layer.cornerStarts[k + 1];
  const p0 = layer.partStarts[k];
  const p1 = layer.partStarts[k + 1];
  if (c0 === undefined || c1 === undefined || p0 === undefined || p1 === undefined)
    throw new RangeError(`The layer has no feature ${k}.`);
  return { kind, coords: layer.coords.subarray(2 * c0, 2 * c1), parts: layer.parts.subarray(p0, p1) };
}
