import { describe, expect, it } from 'vitest';
import type { RunnerResult } from './jobs';
import { endOfRunner } from './runnerEnd';

const result = { bytes: 10, written: 2 } as unknown as RunnerResult;

function wired(written: Promise<RunnerResult | null>, cancelRequested = false) {
  const job: { cancelRequested: boolean; onCancel?: () => Promise<void> } = { cancelRequested };
  const cleaned: string[] = [];
  const { done } = endOfRunner(job, written, async () => void cleaned.push('cleanup'));
  return { job, done, cleaned };
}

describe('the end of an export runner', () => {
  it('keeps a finished file', async () => {
    const w = wired(Promise.resolve(result));
    expect(await w.done).toBe(result);
    expect(w.cleaned).toEqual([]);
  });
  it('removes what was written when the writer saw the cancel, or the cancel came by its end', async () => {
    const a = wired(Promise.resolve(null));
    expect(await a.done).toBeNull();
    const b = wired(Promise.resolve(result), true);
    expect(await b.done).toBeNull();
    expect([...a.cleaned, ...b.cleaned]).toEqual(['cleanup', 'cleanup']);
  });
  it('removes what was written on a failure and passes the failure on', async () => {
    const w = wired(Promise.reject(new Error('disk full')));
    await expect(w.done).rejects.toThrow('disk full');
    expect(w.cleaned).toEqual(['cleanup']);
  });
  it("makes the job's cancel wait until what was written is removed", async () => {
    let finish!: (r: RunnerResult | null) => void;
    const w = wired(new Promise((r) => (finish = r)));
    let waited = false;
    const cancelled = w.job.onCancel!().then(() => (waited = true));
    await Promise.resolve();
    expect(waited).toBe(false);
    w.job.cancelRequested = true;
    finish(result);
    await cancelled;
    expect(w.cleaned).toEqual(['cleanup']);
  });
});
