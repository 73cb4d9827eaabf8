/**
 * A run's workers (runner.ts): `concurrency` of them take the run's pending jobs one at a time (a
 * job split while another worker waits wakes it for the children) and hand each to the surface
 * strategy's `step`, until none is pending, the run is stopped, a step fails, or a step hands the
 * run to another surface. The first failure stops the others.
 */
import { ApiError } from '../api/apiError';
import type { JobStore } from './jobStore';
import { runErrorFrom, type RunError, type SurfaceStrategy } from './runTypes';
import type { Logger } from '../log';

export type PoolEnd = { failure: RunError | null; handOff: boolean };

export async function workThrough(
  deps: { jobs: JobStore; log: Logger; dbName: string },
  runId: number,
  strategy: SurfaceStrategy,
  stop: AbortController,
): Promise<PoolEnd> {
  const { jobs, log } = deps;
  const signal = stop.signal;
  let failure: RunError | null = null;
  let handOff = false;
  const claimed = new Set<number>();
  let busy = 0;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };

  async function worker(): Promise<void> {
    for (;;) {
      if (failure || signal.aborted) return;
      const job = jobs.jobs(runId, 'pending').find((j) => !claimed.has(j.id));
      if (!job) {
        if (busy === 0) return;
        await new Promise<void>((r) => (wake = chain(wake, r)));
        continue;
      }
      claimed.add(job.id);
      busy++;
      try {
        if ((await strategy.step(job, signal)) === 'hand-off') {
          handOff = true;
          stop.abort();
        }
      } catch (error) {
        failure ??= runErrorFrom(error, deps.dbName);
        if (!(error instanceof ApiError)) log.error('sync step failed', { error });
        stop.abort();
      } finally {
        busy--;
        claimed.delete(job.id);
        notify();
      }
    }
  }

  await Promise.all(Array.from({ length: strategy.concurrency }, worker));
  return { failure, handOff };
}

function chain(prev: (() => void) | null, next: () => void): () => void {
  return () => {
    prev?.();
    next();
  };
}
