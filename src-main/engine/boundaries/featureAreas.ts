/**
 * Boundary features → areas to sync. An area is one ring (store/areas), so each polygon part
 * becomes an area from its outer ring (holes are synced too: the sync covers the whole ring, and a
 * filter by the layer's feature still leaves the hole out). A ring over the areas' corner limit is
 * simplified (Douglas–Peucker in degree space, the smallest tolerance that fits) and the note says
 * how far it moved at most. Each shape passes the areas' own checks (`shapeProblems`), or the
 * feature is named with the reason. Points make no area.
 */
import { MAX_POLYGON_POINTS, shapeProblems, type LatLon, type Shape } from '../../../src-shared/geo';
import { EngineError } from '../errors';
import type { BoundaryFeature } from './boundaryFile';

export type AreaShapeOf = { name: string; shape: Shape; note: string | null };

function perpendicular2(p: LatLon, a: LatLon, b: LatLon): number {
  const dx = b[1] - a[1];
  const dy = b[0] - a[0];
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((p[1] - a[1]) * dx + (p[0] - a[0]) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const ex = a[1] + t * dx - p[1];
  const ey = a[0] + t * dy - p[0];
  return ex * ex + ey * ey;
}

/** Douglas–Peucker on a closed ring with tolerance `tol` (degrees); keeps the first and the farthest corner. */
export function simplifyRing(ring: readonly LatLon[], tol: number): LatLon[] {
  const n = ring.length;
  if (n <= 3) return ring.slice();
  let far = 1;
  let best = -1;
  for (let i = 1; i < n; i++) {
    const d = (ring[i]![0] - ring[0]![0]) ** 2 + (ring[i]![1] - ring[0]![1]) ** 2;
    if (d > best) {
      best = d;
      far = i;
    }
  }
  const keep = new Uint8Array(n + 1);
  keep[0] = keep[far] = keep[n] = 1;
  const at = (i: number): LatLon => ring[i % n] as LatLon;
  const stack: [number, number][] = [
    [0, far],
    [far, n],
  ];
  const tol2 = tol * tol;
  while (stack.length) {
    const [s, e] = stack.pop() as [number, number];
    let idx = -1;
    let max = tol2;
    for (let i = s + 1; i < e; i++) {
      const d = perpendicular2(at(i), at(s), at(e));
      if (d > max) {
        max = d;
        idx = i;
      }
    }
    if (idx >= 0) {
      keep[idx] = 1;
      stack.push([s, idx], [idx, e]);
    }
  }
  const out: LatLon[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(ring[i] as LatLon);
  return out;
}

/** The ring with at most `max` corners: itself, or simplified with the smallest tolerance found that fits. */
export function fitRing(ring: readonly LatLon[], max: number): { ring: LatLon[]; tolerance: number } {
  if (ring.length <= max) return { ring: ring.slice(), tolerance: 0 };
  let lo = 0;
  let hi = 1e-6;
  while (simplifyRing(ring, hi).length > max) hi *= 2;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (simplifyRing(ring, mid).length > max) lo = mid;
    else hi = mid;
  }
  return { ring: simplifyRing(ring, hi), tolerance: hi };
}

export function areaShapesOf(
  features: readonly BoundaryFeature[],
  nameOf: (f: BoundaryFeature) => string,
): AreaShapeOf[] {
  const out: AreaShapeOf[] = [];
  for (const f of features) {
    const name = nameOf(f);
    if (f.geometry.kind === 'points')
      throw new EngineError(
        'bad_input',
        `Feature ${f.index} "${name}" is a point, which makes no area; keep the file as a reference layer and count within a distance of it.`,
      );
    const parts = f.geometry.polygons;
    parts.forEach((rings, p) => {
      const outer = rings[0] ?? [];
      const { ring, tolerance } = fitRing(outer, MAX_POLYGON_POINTS);
      const partName = (parts.length > 1 ? `${name} (part ${p + 1})` : name).slice(0, 100);
      const shape: Shape = { kind: 'polygon', points: ring };
      const problems = shapeProblems(shape);
      if (problems.length > 0)
        throw new EngineError(
          'bad_input',
          `Feature ${f.index} "${partName}" cannot be an area: ${problems.join(' ')}`,
        );
      const metres = Math.round(tolerance * 111_320);
      out.push({
        name: partName,
        shape,
        note:
          tolerance > 0
            ? `"${partName}": ${outer.length} corners simplified to ${ring.length} (moved at most about ${metres} m).`
            : rings.length > 1
              ? `"${partName}": its ${rings.length - 1} hole(s) are synced with it (an area is one ring).`
              : null,
      });
    });
  }
  return out;
}
