/**
 * Loaded into the web host by bench/webImport.ts (`node --import`; Node runs it in every thread):
 * in the engine's worker thread (out/main/engineWorker.js) only, it ticks every 5 ms and, for each
 * gap over STALL_MS between two ticks, appends one JSON line to $BLOTTER_LOOP_FILE.engine — when
 * it ended (Date.now()), how long the loop stalled, and the kernel's split of that time for this
 * thread (/proc/thread-self/schedstat): on a CPU (the engine's own work) and runnable but waiting
 * for one (the machine's load). A stall mostly on the CPU is a stretch of the engine's own.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BLOTTER_LOOP_FILE;
const TICK_MS = 5;
const STALL_MS = 40;

/** [on-CPU ns, run-queue wait ns] of this thread, or null. */
function schedstat() {
  try {
    const [cpu, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    return [Number(cpu), Number(wait)];
  } catch {
    return null;
  }
}

if (file && !isMainThread && (process.argv[1] ?? '').endsWith('engineWorker.js')) {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  let last = { at: process.hrtime.bigint(), stat: schedstat() };
  setInterval(() => {
    const now = { at: process.hrtime.bigint(), stat: schedstat() };
    const wall = Number(now.at - last.at);
    if (wall > STALL_MS * 1e6 && now.stat && last.stat) {
      const line = {
        endedAt: Date.now(),
        stallMs: ms(wall),
        cpuMs: ms(now.stat[0] - last.stat[0]),
        runQueueMs: ms(now.stat[1] - last.stat[1]),
      };
      appendFileSync(`${file}.engine`, `${JSON.stringify(line)}\n`);
    }
    last = { at: process.hrtime.bigint(), stat: schedstat() };
  }, TICK_MS).unref();
}
