import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEngine } from './engineClient';
import type { EngineHandle } from './engineHandle';
import { requireKeychain } from './testing/requireKeychain';
import { makeTempDir, type TempDir } from './testing/tempDir';
import { currentThreadId, ENGINE_NICE, runBelowHost } from './threadPriority';

/** nice of each thread of this process, by thread id (Linux /proc; field 19 of stat). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nices.set(Number(tid), Number(fields[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return nices;
}

describe('the engine thread runs below the host', () => {
  it('lowers only the calling thread, on Linux, and says when it could not', () => {
    const calls: Array<[number, number]> = [];
    const setNice = (tid: number, nice: number) => void calls.push([tid, nice]);
    expect(runBelowHost(5, { platform: 'linux', threadId: () => 4242, setNice })).toBe(true);
    expect(calls).toEqual([[4242, 5]]);
    expect(runBelowHost(5, { platform: 'darwin', threadId: () => 4242, setNice })).toBe(false);
    expect(runBelowHost(5, { platform: 'linux', threadId: () => null, setNice })).toBe(false);
    const refused = () => {
      throw new Error('EACCES');
    };
    expect(runBelowHost(5, { platform: 'linux', threadId: () => 4242, setNice: refused })).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('reads the calling thread’s id from /proc/thread-self', () => {
    expect(currentThreadId((p) => (p === '/proc/thread-self' ? '1234/task/1240' : ''))).toBe(1240);
    expect(currentThreadId(() => 'garbage')).toBeNull();
    expect(
      currentThreadId(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
    if (process.platform === 'linux') expect(currentThreadId()).toBe(process.pid); // the main thread
  });

  describe.runIf(process.platform === 'linux')('a real engine worker', () => {
    let tmp: TempDir;
    let engine: EngineHandle | undefined;
    beforeAll(requireKeychain);
    afterEach(async () => {
      await engine?.close();
      engine = undefined;
      tmp.remove();
    });

    it('is one nice step group below the host’s main thread, which stays where it was', async () => {
      tmp = makeTempDir();
      const before = threadNices();
      const mainNice = before.get(process.pid);
      engine = await startEngine({ dataDir: tmp.path, host: 'web', version: '1' });
      expect(await engine.call('getAppInfo', {})).toMatchObject({ ok: true });
      const after = threadNices();
      const lowered = [...after].filter(
        ([tid, nice]) => !before.has(tid) && nice === (mainNice ?? 0) + ENGINE_NICE,
      );
      expect(lowered.length).toBeGreaterThanOrEqual(1); // the engine's thread
      expect(after.get(process.pid)).toBe(mainNice); // the host's loop keeps its priority
    });
  });
});
