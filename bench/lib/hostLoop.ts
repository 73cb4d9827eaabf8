/**
 * The web host's event loop as bench/lib/loopMonitor.mjs (loaded into the host with `--import`)
 * measures it: each report covers the time since the last (max, p99, mean delay in ms; the worst
 * stall split into the host thread's own CPU and its wait for one).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostProcess } from './webHostProcess';

export type LoopReport = { maxMs: number; p99Ms: number; meanMs: number; ownMaxMs: number | null } | null;

/** Set before the host starts: the monitor in it writes its reports here. */
const LOOP_FILE = path.join(tmpdir(), `blotter-web-loop-${process.pid}.json`);
process.env.BLOTTER_LOOP_FILE = LOOP_FILE;

export function hostLoop(host: HostProcess): { report(): Promise<LoopReport> } {
  return {
    async report() {
      rmSync(LOOP_FILE, { force: true });
      host.child.kill('SIGUSR2');
      for (let i = 0; i < 100 && !existsSync(LOOP_FILE); i++) await new Promise((r) => setTimeout(r, 20));
      try {
        return JSON.parse(readFileSync(LOOP_FILE, 'utf8')) as LoopReport;
      } catch {
        return null;
      }
    },
  };
}
