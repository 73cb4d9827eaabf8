/**
 * How every export runner ends (dataExport.ts, gisRows.ts `runnerOf`): a writer that answered null
 * (it saw the cancel), a cancel asked for by the time it ended, or a failure removes what it wrote
 * (`cleanup`), and the job's cancel waits until that is done — so a cancelled export never leaves a
 * part-written file behind.
 */
import type { ExportJob, RunnerResult } from './jobs';

export function endOfRunner(
  job: Pick<ExportJob, 'cancelRequested' | 'onCancel'>,
  written: Promise<RunnerResult | null>,
  cleanup: () => Promise<void>,
): { done: Promise<RunnerResult | null> } {
  const done = written.then(
    async (result) => {
      if (!result || job.cancelRequested) {
        await cleanup();
        return null;
      }
      return result;
    },
    async (error: unknown) => {
      await cleanup();
      throw error;
    },
  );
  job.onCancel = () =>
    done.then(
      () => undefined,
      () => undefined,
    );
  return { done };
}
