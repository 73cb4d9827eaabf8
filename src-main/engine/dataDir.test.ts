import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirError, dataDirFlag, dbFileOf, ensureDir, locateDataDir, resolveDataDir } from './dataDir';
import { makeTempDir, type TempDir } from './testing/tempDir';

const linux = { platform: 'linux' as const, homedir: '/home/ana', env: {}, argv: [], cwd: '/work' };

describe('locateDataDir', () => {
  it('uses the platform app-data folder by default (same as Electron userData for Blotter)', () => {
    expect(locateDataDir(linux)).toBe('/home/ana/.config/Blotter');
    expect(locateDataDir({ ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).toBe('/xdg/Blotter');
    expect(locateDataDir({ ...linux, env: { XDG_CONFIG_HOME: 'relative' } })).toBe(
      '/home/ana/.config/Blotter',
    );
    expect(locateDataDir({ ...linux, platform: 'darwin', homedir: '/Users/ana' })).toBe(
      '/Users/ana/Library/Application Support/Blotter',
    );
    expect(
      locateDataDir({
        ...linux,
        platform: 'win32',
        homedir: 'C:\\Users\\ana',
        env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' },
      }),
    ).toBe('C:\\Users\\ana\\AppData\\Roaming\\Blotter');
    expect(locateDataDir({ ...linux, platform: 'win32', homedir: 'C:\\Users\\ana' })).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\Blotter',
    );
  });

  it('lets BLOTTER_DATA_DIR override the default, and --data-dir override both', () => {
    const env = { BLOTTER_DATA_DIR: '/srv/office-a' };
    expect(locateDataDir({ ...linux, env })).toBe('/srv/office-a');
    expect(locateDataDir({ ...linux, env, argv: ['--data-dir', '/srv/b'] })).toBe('/srv/b');
    expect(locateDataDir({ ...linux, env, argv: ['x', '--data-dir=/srv/c', 'y'] })).toBe('/srv/c');
  });

  it('resolves relative paths against cwd and expands ~', () => {
    expect(locateDataDir({ ...linux, argv: ['--data-dir', 'data'] })).toBe('/work/data');
    expect(locateDataDir({ ...linux, env: { BLOTTER_DATA_DIR: '~/blotter' } })).toBe('/home/ana/blotter');
    expect(locateDataDir({ ...linux, argv: ['--data-dir=~'] })).toBe('/home/ana');
  });

  it('refuses an empty value with a clear message', () => {
    expect(() => locateDataDir({ ...linux, argv: ['--data-dir='] })).toThrow(
      /--data-dir needs a folder path/,
    );
    expect(() => locateDataDir({ ...linux, argv: ['--data-dir'] })).toThrow(DataDirError);
    expect(() => locateDataDir({ ...linux, argv: ['--data-dir', '--verbose'] })).toThrow(DataDirError);
    expect(() => locateDataDir({ ...linux, argv: ['--data-dir', '  '] })).toThrow(DataDirError);
    expect(() => locateDataDir({ ...linux, env: { BLOTTER_DATA_DIR: '' } })).toThrow(
      /BLOTTER_DATA_DIR is set but empty/,
    );
  });
});

describe('dataDirFlag', () => {
  it('takes the last occurrence and stops at --', () => {
    expect(dataDirFlag(['--data-dir', 'a', '--data-dir=b'])).toBe('b');
    expect(dataDirFlag(['--data-dir=a', '--', '--data-dir=b'])).toBe('a');
    expect(dataDirFlag(['--other'])).toBeUndefined();
  });
});

describe('resolveDataDir', () => {
  let temp: TempDir;
  let tmp: string;
  beforeEach(() => {
    temp = makeTempDir();
    tmp = temp.path;
  });
  afterEach(() => temp.remove());

  it('creates the folder with mode 0700 and names the DB file inside it', () => {
    const dir = resolveDataDir({ ...linux, argv: ['--data-dir', path.join(tmp, 'a', 'b')] });
    expect(dir).toBe(path.join(tmp, 'a', 'b'));
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(dbFileOf(dir)).toBe(path.join(dir, 'blotter.sqlite'));
    expect(resolveDataDir({ ...linux, env: { BLOTTER_DATA_DIR: dir } })).toBe(dir); // existing: fine
  });

  it('refuses a path that is a file, or lies under one', () => {
    const file = path.join(tmp, 'file');
    writeFileSync(file, 'x');
    expect(() => resolveDataDir({ ...linux, argv: ['--data-dir', file] })).toThrow(/is a file/);
    expect(() => resolveDataDir({ ...linux, argv: ['--data-dir', path.join(file, 'sub')] })).toThrow(
      /is a file/,
    );
  });

  it('refuses an existing folder other users can write to, saying how to fix it, and leaves it as it is', () => {
    for (const mode of [0o770, 0o777, 0o1777, 0o720]) {
      const dir = path.join(tmp, `shared-${mode.toString(8)}`);
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(() => resolveDataDir({ ...linux, argv: ['--data-dir', dir] }), mode.toString(8)).toThrow(
        /can be changed by other users .*-writable\)\. Blotter does not change .*chmod 700/,
      );
      expect(statSync(dir).mode & 0o7777).toBe(mode);
    }
    const readable = path.join(tmp, 'readable');
    mkdirSync(readable);
    chmodSync(readable, 0o755);
    expect(resolveDataDir({ ...linux, argv: ['--data-dir', readable] })).toBe(readable);
  });

  it('refuses a folder that belongs to another user', () => {
    const dir = path.join(tmp, 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    const me = statSync(dir).uid;
    expect(() => ensureDir(dir, me + 1)).toThrow(/belongs to another user \(uid \d+, you are \d+\)/);
    expect(() => ensureDir(dir, me)).not.toThrow();
  });
});
