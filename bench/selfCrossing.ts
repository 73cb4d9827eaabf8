/**
 * The self-crossing check (src-shared/geo polygon.ts `selfIntersects`, as `geometryProblems` runs it
 * on a boundary file's rings) on the zig-zag star: 250,000 corners alternating between circles of
 * 1 km and 1.01 km around one centre — spikes 2.5 cm apart that no grid separates (the edge grid
 * alone took 3.2 s). Bound: 500 ms, median of 5, wall and CPU. Also the star with one crossing put
 * in (must be found) and, for reference, the wavy ring of bench/geometryProblems.ts.
 *
 *   npx tsx bench/selfCrossing.ts [--corners N]
 */
import { loadavg } from 'node:os';
import { selfIntersects } from '../src-shared/geo/polygon';
import { crossedStar, wavyRing, zigzagStar } from '../src-shared/geo/rings.testing';
import { quantile, round } from './lib/stats';

const BOUND_MS = 500;
const at = process.argv.indexOf('--corners');
const CORNERS = at >= 0 ? Number(process.argv[at + 1]) : 250_000;

/** Median wall and CPU milliseconds of 5 runs, and the answers. */
function median(run: () => boolean): { ms: number; cpuMs: number; answers: boolean[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const answers: boolean[] = [];
  for (let i = 0; i < 5; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    answers.push(run());
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: round(quantile(wall, 0.5)), cpuMs: round(quantile(cpu, 0.5)), answers };
}

const loadBefore = loadavg().map((l) => round(l, 2));
const star = zigzagStar(CORNERS);
const crossed = crossedStar(star, Math.floor(CORNERS / 2) + 1);
const wavy = wavyRing(CORNERS, 41.85, -87.65, 0.1);
const simple = median(() => selfIntersects(star));
const withCrossing = median(() => selfIntersects(crossed));
const wavyOne = median(() => selfIntersects(wavy));
const right =
  simple.answers.every((a) => !a) && withCrossing.answers.every((a) => a) && wavyOne.answers.every((a) => !a);

console.log(
  JSON.stringify({
    bench: 'self-crossing',
    corners: CORNERS,
    star: { ms: simple.ms, cpuMs: simple.cpuMs },
    starWithOneCrossing: { ms: withCrossing.ms, cpuMs: withCrossing.cpuMs },
    wavyRing: { ms: wavyOne.ms, cpuMs: wavyOne.cpuMs },
    answersRight: right,
    bound: { starMs: BOUND_MS },
    ok: right && simple.ms <= BOUND_MS && withCrossing.ms <= BOUND_MS,
    load: { before: loadBefore, after: loadavg().map((l) => round(l, 2)) },
  }),
);
