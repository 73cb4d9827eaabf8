/**
 * For tests of issue 31 (tests only): the longest time a job held the engine thread without a
 * turn of its event loop, in that thread's own CPU time (the kernel's /proc schedstat, so a
 * loaded machine's run queue does not count; wall time where there is none).
 */
import { readFileSync } from 'node:fs';

function threadCpuMs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

const clock = (): number => threadCpuMs() ?? performance.now();

/** Runs `job` with a tick on every turn of the loop; the most CPU time between two ticks, in ms. */
export async function longestStretchDuring(job: () => Promise<unknown>): Promise<number> {
  let running = true;
  let longestMs = 0;
  let last = clock();
  const tick = (): void => {
    const now = clock();
    longestMs = Math.max(longestMs, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await job();
  } finally {
    running = false;
    tick();
  }
  return longestMs;
}
