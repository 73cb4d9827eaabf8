/**
 * Loaded into the web host by the workspace benchmark (`node --import`): the main thread's event-loop
 * delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution). On SIGUSR2 it writes the figures since
 * the last report (max, p99, mean in ms) to $BLOTTER_LOOP_FILE and starts again.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BLOTTER_LOOP_FILE;
if (file && process.argv.some((a) => a.endsWith('web/main.ts'))) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    writeFileSync(
      file,
      JSON.stringify({ maxMs: ms(h.max), p99Ms: ms(h.percentile(99)), meanMs: ms(h.mean) }),
    );
    h.reset();
  });
}
