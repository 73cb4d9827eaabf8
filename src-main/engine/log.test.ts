import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureLogging, createLogger, registerSecret, unregisterSecret } from './log';
import { makeTempDir, type TempDir } from './testing/tempDir';

describe('log', () => {
  let tmp: TempDir;
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir();
    file = path.join(tmp.path, 'logs', 'blotter.log');
    configureLogging({ file, stderr: false, level: 'info', maxBytes: 5 * 1024 * 1024, keep: 3 });
  });
  afterEach(() => {
    configureLogging({ file: null, stderr: true });
    tmp.remove();
  });

  it('writes named, levelled lines to the file and drops those below the level', () => {
    const log = createLogger('sync');
    log.debug('not shown');
    log.info('started', { area: 3 });
    log.error('failed', { error: new Error('boom') });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('not shown');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}\[sync\] started \{"area":3\}$/m);
    expect(text).toMatch(/ERROR \[sync\] failed \{"error":\{"name":"Error","message":"boom"\}\}\n {2}at /);
  });

  it('never writes the API key: registered secrets, key= values and Bearer tokens', () => {
    const key = 'Zq8-live-4f1c9e';
    registerSecret(key);
    try {
      const log = createLogger('api');
      log.info(`GET https://h/crimes.json?key=${key}&lat=1`);
      log.warn('header', { authorization: `Bearer ${key}` });
      log.error('oops', { error: new Error(`bad key ${key}`) });
      log.info('unregistered', { url: 'https://h/crimes/1.json?key=other-secret' });
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(key);
      expect(text).not.toContain('other-secret');
      expect(text.match(/REDACTED/g)?.length).toBe(4);
    } finally {
      unregisterSecret(key);
    }
  });

  it('rotates the file when it would grow past maxBytes, keeping `keep` old files', () => {
    configureLogging({ maxBytes: 300, keep: 2 });
    const log = createLogger('rot');
    for (let i = 0; i < 20; i++) log.info(`line ${i} ${'x'.repeat(60)}`);
    expect(readFileSync(file).length).toBeLessThanOrEqual(300);
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    expect(readFileSync(file, 'utf8')).toContain('line 19');
  });
});
