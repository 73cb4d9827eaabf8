/**
 * The engine's thread yields to the host's: on Linux a thread has its own nice value, so the engine
 * worker (snapshot loads, queries, syncs) can run a step below the host's main thread, which routes
 * every call and, in Electron, drives the windows. The host's loop then gets a core as soon as it has
 * work, even while the engine is busy; when the host is idle the engine has the core to itself.
 * Threads the engine starts inherit the value. Elsewhere (and if the kernel refuses) nothing changes.
 * `BLOTTER_ENGINE_NICE=0` in the environment leaves the engine at the host's level (to compare).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** How far below the host the engine runs (nice steps: each is ~1.25× less CPU share under contention). */
export const ENGINE_NICE = 5;
/** Helper threads doing a long job (an import's checks and merge) run below the engine thread. */
export const HELPER_NICE = ENGINE_NICE + 5;

/** The kernel's id of the calling thread (Linux), from /proc/thread-self → `<pid>/task/<tid>`. */
export function currentThreadId(readLink: (p: string) => string = readlinkSync): number | null {
  try {
    const tid = Number(readLink('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Lowers the calling thread (only it) to `nice`; true when the kernel took it. */
export function runBelowHost(
  nice = ENGINE_NICE,
  deps: {
    platform?: string;
    threadId?: () => number | null;
    setNice?: (tid: number, nice: number) => void;
  } = {},
): boolean {
  if ((deps.platform ?? process.platform) !== 'linux') return false;
  const tid = (deps.threadId ?? currentThreadId)();
  if (tid === null) return false;
  try {
    (deps.setNice ?? setPriority)(tid, nice);
    return true;
  } catch {
    return false;
  }
}
