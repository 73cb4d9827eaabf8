/**
 * Loaded into the web host by the workspace benchmark (`node --import`): the main thread's event-loop
 * delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution). On SIGUSR2 it writes the figures since
 * the last report (max, p99, mean in ms) to $BLOTTER_LOOP_FILE and starts again.
 *
 * It also splits each stall by the kernel's account of this thread (/proc/self/task/PID/schedstat:
 * time on a CPU, time runnable but waiting for one), ticking every 5 ms: `ownMaxMs` is the most CPU
 * the thread itself used between two ticks — an upper bound on how long the host's own work held its
 * loop — and `worst` the longest stall with its CPU and run-queue parts. On a machine other
 * processes load, a stall with little CPU and a long run-queue wait was the scheduler's, not the
 * host's. Where schedstat is missing those figures are null.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BLOTTER_LOOP_FILE;
const TICK_MS = 5;

/** [on-CPU ns, run-queue wait ns] of the main thread, or null. */
function schedstat() {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return [Number(cpu), Number(wait)];
  } catch {
    return null;
  }
}

if (file && process.argv.some((a) => a.endsWith('web/main.ts'))) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  let last = { at: process.hrtime.bigint(), stat: schedstat() };
  let ownMax = 0;
  let worst = null;
  setInterval(() => {
    const now = { at: process.hrtime.bigint(), stat: schedstat() };
    if (now.stat && last.stat) {
      const wall = Number(now.at - last.at);
      const cpu = now.stat[0] - last.stat[0];
      const queued = now.stat[1] - last.stat[1];
      ownMax = Math.max(ownMax, cpu);
      if (!worst || wall > worst.wall) worst = { wall, cpu, queued };
    }
    last = now;
  }, TICK_MS).unref();
  process.on('SIGUSR2', () => {
    const split = last.stat !== null;
    writeFileSync(
      file,
      JSON.stringify({
        maxMs: ms(h.max),
        p99Ms: ms(h.percentile(99)),
        meanMs: ms(h.mean),
        ownMaxMs: split ? ms(ownMax) : null,
        worst:
          split && worst
            ? { stallMs: ms(worst.wall), cpuMs: ms(worst.cpu), runQueueMs: ms(worst.queued) }
            : null,
      }),
    );
    h.reset();
    ownMax = 0;
    worst = null;
  });
}
