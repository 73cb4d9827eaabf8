/**
 * The API key lives only in the OS keychain: after setting it through a real engine worker, no
 * file in the data folder (SQLite, its WAL and shared memory, the logs) contains it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEngine } from '../engineClient';
import type { EngineHandle } from '../engineHandle';
import { requireKeychain } from '../testing/requireKeychain';
import { makeTempDir, type TempDir } from '../testing/tempDir';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('the API key', () => {
  const key = `leak-probe-${Math.random().toString(36).slice(2)}-Zq8`;
  let tmp: TempDir;
  let engine: EngineHandle;
  const level = process.env.BLOTTER_LOG_LEVEL;

  beforeAll(requireKeychain);
  beforeEach(async () => {
    tmp = makeTempDir();
    process.env.BLOTTER_LOG_LEVEL = 'debug'; // the worker logs everything it would ever log
    engine = await startEngine({ dataDir: tmp.path, host: 'web', version: '1' });
  });
  afterEach(async () => {
    await engine.call('removeApiKey', {});
    await engine.close();
    if (level === undefined) delete process.env.BLOTTER_LOG_LEVEL;
    else process.env.BLOTTER_LOG_LEVEL = level;
    tmp.remove();
  });

  const filesHoldingKey = (): string[] =>
    filesUnder(tmp.path).filter((file) => {
      const bytes = readFileSync(file);
      return bytes.includes(key) || bytes.includes(Buffer.from(key, 'utf16le'));
    });

  it('never lands in the database file, its WAL, or the log', async () => {
    expect(await engine.call('setApiKey', { key })).toMatchObject({ ok: true, value: { keySet: true } });
    await engine.call('updateSettings', { baseUrl: 'https://api.example.com' });
    await engine.call('getKeyStatus', {});
    await engine.call('setApiKey', { key: `${key} with spaces` }); // refused: bad_input must not echo it
    const names = filesUnder(tmp.path).map((f) => path.relative(tmp.path, f));
    expect(names).toEqual(
      expect.arrayContaining(['blotter.sqlite', 'blotter.sqlite-wal', 'logs/blotter.log']),
    );
    expect(filesHoldingKey()).toEqual([]);
    await engine.close();
    expect(filesHoldingKey()).toEqual([]);
  });
});
