/**
 * Analysis work left on the engine thread, cut into ~20 ms slices with a turn of the engine's event
 * loop between them (issue 31), so a map's counts call asked meanwhile is answered; a cancelled job
 * stops between slices. CompStat's membership test (which of the filter's incidents lie in an
 * area's or a layer feature's shape: 1M incidents × the areas), repeat locations' places and
 * per-place output (each place's days and ids), and copying the filter's columns use it.
 */
import { yieldToEventLoop } from '../eventLoop';
import { pickColumnsInSteps, type ColumnSource, type IncidentColumns } from './points';

/** A slice of work between turns of the event loop (BLOTTER_SLICE_MS: tests ask for shorter). */
const SLICE_MS = 20;
const sliceMsDefault = (): number => Number(process.env.BLOTTER_SLICE_MS) || SLICE_MS;

export type MemberOptions = {
  /** Checked between slices: throws (the job's cancel) to stop. */
  checkCancelled?: () => void;
  pause?: () => Promise<void>;
  sliceMs?: number;
};

/**
 * The indices k (ascending) with `contains(lat[k], lon[k])`; every index when `contains` is null.
 * The same indices as one plain loop, in slices.
 */
export async function membersSliced(
  lat: Float64Array | Float32Array,
  lon: Float64Array | Float32Array,
  contains: ((lat: number, lon: number) => boolean) | null,
  options: MemberOptions = {},
): Promise<number[]> {
  const { checkCancelled, pause = yieldToEventLoop, sliceMs = sliceMsDefault() } = options;
  const n = lat.length;
  const members: number[] = [];
  if (!contains) {
    for (let k = 0; k < n; k++) members.push(k);
    return members;
  }
  let sliceStart = performance.now();
  for (let k = 0; k < n; k++) {
    if (contains(lat[k] as number, lon[k] as number)) members.push(k);
    if ((k & 1023) === 1023 && performance.now() - sliceStart >= sliceMs) {
      await pause();
      checkCancelled?.();
      sliceStart = performance.now();
    }
  }
  return members;
}

/** `items.map(each)`, with a turn of the event loop whenever a slice has taken ~20 ms. */
export async function slicedMap<T, U>(
  items: readonly T[],
  each: (item: T) => U,
  options: MemberOptions = {},
): Promise<U[]> {
  const { checkCancelled, pause = yieldToEventLoop, sliceMs = sliceMsDefault() } = options;
  const out: U[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    out.push(each(item));
    if (performance.now() - sliceStart >= sliceMs) {
      await pause();
      checkCancelled?.();
      sliceStart = performance.now();
    }
  }
  return out;
}

/**
 * Runs `steps` (a generator that yields between short steps) to its result, with a turn of the
 * event loop whenever a slice has taken ~20 ms.
 */
export async function drainSliced<R>(
  steps: Generator<void, R, void>,
  options: MemberOptions = {},
): Promise<R> {
  const { checkCancelled, pause = yieldToEventLoop, sliceMs = sliceMsDefault() } = options;
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await pause();
      checkCancelled?.();
      sliceStart = performance.now();
    }
  }
}

/** pickColumns (points.ts) in slices: the filter's rows' columns, copied ~20 ms at a time. */
export async function pickColumnsSliced(
  source: ColumnSource,
  rows: ArrayLike<number>,
  options: MemberOptions = {},
): Promise<IncidentColumns> {
  return drainSliced(pickColumnsInSteps(source, rows), options);
}
