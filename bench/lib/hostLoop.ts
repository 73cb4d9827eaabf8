/**
 * The web host's event loop as bench/lib/loopMonitor.mjs (loaded into the host with `--import`)
 * measures it: each report covers the time since the last (max, p99, mean delay in ms; the worst
 * stall split into the host thread's own CPU and its wait for one); the engine thread's stalls as
 * bench/lib/engineLoopMonitor.mjs logs them.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostProcess } from './webHostProcess';

export type LoopReport = { maxMs: number; p99Ms: number; meanMs: number; ownMaxMs: number | null } | null;

/** Set before the host starts: the monitor in it writes its reports here. */
const LOOP_FILE = path.join(tmpdir(), `blotter-web-loop-${process.pid}.json`);
process.env.BLOTTER_LOOP_FILE = LOOP_FILE;

/** One stall of the engine thread's loop (bench/lib/engineLoopMonitor.mjs). */
export type EngineStall = { endedAt: number; stallMs: number; cpuMs: number; runQueueMs: number };

/** The engine thread's stalls that ended between `from` and `to` (Date.now()). */
function engineStalls(from: number, to: number): EngineStall[] {
  if (!existsSync(`${LOOP_FILE}.engine`)) return [];
  return readFileSync(`${LOOP_FILE}.engine`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EngineStall)
    .filter((s) => s.endedAt >= from && s.endedAt <= to);
}

/** The engine thread's loop between two moments: its longest stall, and its longest own stretch. */
export function engineLoop(from: number, to: number) {
  const stalls = engineStalls(from, to);
  const longest = stalls.reduce<EngineStall | null>((a, s) => (!a || s.stallMs > a.stallMs ? s : a), null);
  const own = stalls.reduce<EngineStall | null>((a, s) => (!a || s.cpuMs > a.cpuMs ? s : a), null);
  return {
    stallsOver40Ms: stalls.length,
    longest: longest && { stallMs: longest.stallMs, cpuMs: longest.cpuMs, runQueueMs: longest.runQueueMs },
    mostOwnCpu: own && { stallMs: own.stallMs, cpuMs: own.cpuMs, runQueueMs: own.runQueueMs },
  };
}

export function hostLoop(host: HostProcess): { report(): Promise<LoopReport> } {
  rmSync(`${LOOP_FILE}.engine`, { force: true });
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
