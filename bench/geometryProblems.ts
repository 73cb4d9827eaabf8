/**
 * `geometryProblems` (src-shared/geo/features.ts: the self-crossing check of a feature's rings,
 * run on the engine thread for each feature of a boundary file before its preview) at the
 * boundary readers' corner limit for one feature (LIMITS.featureVertices, 250,000 corners): one
 * ring of 250,000 corners, and 62 rings of 4,000 (wavy rings, boxes overlapping, so a box test
 * saves little; the old all-pairs check's worst case, ~7.8 s). Bound: 100 ms each. Also, for
 * information: a whole file at the file's limit (LIMITS.vertices, 2,000,000 corners as 500 beats
 * of 4,000), a comb of 1,000 teeth finer than a grid cell, all pairs on 10 beats, the machine's load.
 * Each figure is the median of 5 runs, wall and CPU.
 *
 *   npx tsx bench/geometryProblems.ts
 */
import { loadavg } from 'node:os';
import { geometryProblems, type FeatureGeometry } from '../src-shared/geo';
import { allPairsCross, comb, wavyRing } from '../src-shared/geo/rings.testing';

const BOUND_MS = 100;

const beats: FeatureGeometry[] = Array.from({ length: 500 }, (_, k) => ({
  kind: 'polygons',
  polygons: [[wavyRing(4000, 41.7 + (k % 25) * 0.02, -87.9 + Math.floor(k / 25) * 0.02, 0.008)]],
}));
const big: FeatureGeometry = { kind: 'polygons', polygons: [[wavyRing(250_000, 41.85, -87.65, 0.1)]] };
/** One feature of 62 parts of 4,000 corners, all over the same few blocks. */
const parts: FeatureGeometry = {
  kind: 'polygons',
  polygons: Array.from({ length: 62 }, (_, k) => [
    wavyRing(4000, 41.85 + (k % 8) * 0.004, -87.65 + (k >> 3) * 0.004, 0.008),
  ]),
};
const combed: FeatureGeometry = { kind: 'polygons', polygons: [[comb(1000)]] };

/** Median wall and CPU milliseconds of `times` runs. */
function median(run: () => void, times = 5): { ms: number; cpuMs: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < times; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const mid = (xs: number[]) => Math.round(xs.sort((a, b) => a - b)[Math.floor(times / 2)]! * 10) / 10;
  return { ms: mid(wall), cpuMs: mid(cpu) };
}

let problems = 0;
const ring = median(() => void (problems += geometryProblems(big).length));
const rings = median(() => void (problems += geometryProblems(parts).length));
const file = median(() => {
  for (const g of beats) problems += geometryProblems(g).length;
});
const combed1 = median(() => void (problems += geometryProblems(combed).length));

const t0 = performance.now();
for (const g of beats.slice(0, 10))
  if (g.kind === 'polygons' && allPairsCross(g.polygons[0]![0]!)) problems++;
const allPairsTenMs = Math.round(performance.now() - t0);

console.log(
  JSON.stringify({
    bench: 'geometry-problems',
    featureCorners: 250_000,
    oneRing: ring,
    ringsOf4000: rings,
    fileCorners: 2_000_000,
    file,
    combCorners: 4002,
    comb: combed1,
    allPairsTenBeatsMs: allPairsTenMs,
    problemsFound: problems,
    bound: { featureMs: BOUND_MS },
    ok: ring.ms <= BOUND_MS && rings.ms <= BOUND_MS && problems === 0,
    load: loadavg().map((l) => Math.round(l * 100) / 100),
  }),
);
