import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-shared/contract';
import type { EngineHandle } from '../engine/engineHandle';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { demoDataDirOf, ensureDemoDir, MARKER_FILE, readMarker, removeDemoDir } from './marker';
import { bypassProxyForLoopback } from './simulator';
import { createSwitchingEngine } from './switchingEngine';

let tmp: TempDir;
afterEach(() => tmp?.remove());

describe('the demo folder', () => {
  it('sits next to the real one, whatever the platform folder', () => {
    expect(demoDataDirOf('/home/ana/.config/Blotter')).toBe('/home/ana/.config/Blotter-demo');
    expect(demoDataDirOf('/tmp/blotter-demo-check')).toBe('/tmp/blotter-demo-check-demo');
  });

  it('is created with a marker that is kept across starts', () => {
    tmp = makeTempDir();
    const dir = path.join(tmp.path, 'Blotter-demo');
    const first = ensureDemoDir(dir, path.join(tmp.path, 'Blotter'), 1000);
    expect(readMarker(dir)).toEqual(first);
    expect(ensureDemoDir(dir, 'elsewhere', 2000)).toEqual(first);
  });

  it('never adopts a folder of that name that holds something else', () => {
    tmp = makeTempDir();
    const dir = path.join(tmp.path, 'Blotter-demo');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    expect(() => ensureDemoDir(dir, path.join(tmp.path, 'Blotter'), 1)).toThrow(/not a Blotter demo folder/);
    expect(readMarker(dir)).toBeNull();
  });

  it('is the only kind of folder removal deletes', () => {
    tmp = makeTempDir();
    const real = path.join(tmp.path, 'Blotter');
    mkdirSync(real);
    writeFileSync(path.join(real, 'blotter.sqlite'), 'precious');
    expect(() => removeDemoDir(real)).toThrow(/not a Blotter demo folder/);
    expect(existsSync(path.join(real, 'blotter.sqlite'))).toBe(true);

    writeFileSync(path.join(real, MARKER_FILE), '{"kind":"something else"}');
    expect(() => removeDemoDir(real)).toThrow(/not a Blotter demo folder/);

    const demo = path.join(tmp.path, 'Blotter-demo');
    ensureDemoDir(demo, real, 1);
    writeFileSync(path.join(demo, 'blotter.sqlite'), 'synthetic');
    removeDemoDir(demo);
    expect(existsSync(demo)).toBe(false);
    removeDemoDir(demo); // already gone: nothing to do
  });
});

describe('proxies and the loopback simulator', () => {
  it('adds the loopback names to NO_PROXY only when a proxy is set', () => {
    const none: NodeJS.ProcessEnv = {};
    bypassProxyForLoopback(none);
    expect(none).toEqual({});

    const env: NodeJS.ProcessEnv = {
      HTTPS_PROXY: 'http://proxy.office:3128',
      NO_PROXY: 'intranet,localhost',
    };
    bypassProxyForLoopback(env);
    expect(env.NO_PROXY).toBe('intranet,localhost,127.0.0.1,::1');
    expect(env.no_proxy).toBe('127.0.0.1,localhost,::1');
    bypassProxyForLoopback(env);
    expect(env.NO_PROXY).toBe('intranet,localhost,127.0.0.1,::1');
  });
});

function fakeEngine(name: string) {
  const listeners = new Set<(e: EngineEvent) => void>();
  const handle = {
    closed: false,
    emit: (e: EngineEvent) => listeners.forEach((l) => l(e)),
    call: async () => ({ ok: true as const, value: name }),
    onEvent: (l: (e: EngineEvent) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => {
      handle.closed = true;
    },
  };
  return handle;
}

describe('the switching engine', () => {
  it('moves calls and event listeners to the new engine and closes the old one', async () => {
    const a = fakeEngine('a');
    const b = fakeEngine('b');
    const s = createSwitchingEngine(a as unknown as EngineHandle);
    const seen: string[] = [];
    s.onEvent((e) => seen.push(e.type === 'incidentsChanged' ? `changed ${e.areaId}` : e.type));
    expect(await s.call('getAppInfo', {})).toEqual({ ok: true, value: 'a' });
    a.emit({ type: 'incidentsChanged', areaId: 1 });

    await s.switchTo(b as unknown as EngineHandle);
    expect(a.closed).toBe(true);
    a.emit({ type: 'incidentsChanged', areaId: 2 }); // the old engine is no longer heard
    b.emit({ type: 'incidentsChanged', areaId: 3 });
    expect(await s.call('getAppInfo', {})).toEqual({ ok: true, value: 'b' });
    expect(seen).toEqual(['changed 1', 'changed 3']);

    await s.close();
    expect(b.closed).toBe(true);
  });
});
