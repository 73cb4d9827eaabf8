import { describe, expect, it } from 'vitest';
import type { BasemapEstimate } from '../../../src-shared/basemap';
import type { EngineEvent } from '../../../src-shared/contract';
import { BridgeCallError, type Client } from '../../bridge/client';
import { hostHook } from '../../bridge/testHookHost';
import { useStreetsDownload } from './useStreetsDownload';

const ESTIMATE: BasemapEstimate = {
  source: 'https://x/a.pmtiles',
  areas: 1,
  tiles: 10,
  bytes: 1000,
  tilesToFetch: 10,
  bytesToFetch: 1000,
  requests: 1,
  resumed: false,
  minZoom: 0,
  maxZoom: 15,
  freeBytes: 1e9,
};
const PROGRESS = { tilesDone: 1, tilesTotal: 10, bytesDone: 100, bytesTotal: 1000, secondsLeft: 5 };

/** A client whose basemap calls answer as the test says; it records what was sent. */
function basemapEngine(answer: (name: string) => Promise<BasemapEstimate>) {
  const sent: [string, unknown][] = [];
  const listeners = new Set<(event: EngineEvent) => void>();
  const client = {
    call: (name: string, input: unknown) => {
      sent.push([name, input]);
      return name === 'cancelBasemapDownload' ? Promise.resolve({}) : answer(name);
    },
    onEvent: (listener: (event: EngineEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Client;
  const send = (event: EngineEvent) => listeners.forEach((l) => l(event));
  return { client, sent, send };
}

describe('the offline streets download, one flow for Settings and an area’s card', () => {
  it('estimates, starts with the source given, follows the progress and cancels', async () => {
    const engine = basemapEngine(async () => ESTIMATE);
    const host = await hostHook(
      () => useStreetsDownload(engine.client, async () => ({ source: ESTIMATE.source })),
      {},
    );
    await host.act(() => void host.value.ask());
    await host.settle();
    expect(host.value.estimate).toEqual(ESTIMATE);
    expect(host.value.started).toBe(false);
    await host.act(() => void host.value.start(true));
    await host.settle();
    expect(engine.sent.slice(0, 2)).toEqual([
      ['estimateBasemapDownload', { source: ESTIMATE.source }],
      ['startBasemapDownload', { source: ESTIMATE.source, startOver: true }],
    ]);
    expect(host.value).toMatchObject({ started: true, busy: false, problem: null });
    await host.act(() => engine.send({ type: 'basemapProgress', state: 'running', ...PROGRESS }));
    expect(host.value.running).toBe(true);
    host.value.cancel();
    expect(engine.sent.at(-1)).toEqual(['cancelBasemapDownload', {}]);
    await host.unmount();
  });

  it('says a conflict over a changed source is a new version, and the download did not start', async () => {
    const changed = new BridgeCallError('startBasemapDownload', {
      code: 'conflict',
      message: 'The source changed since the last download: start over with the new version.',
    });
    const engine = basemapEngine(async () => Promise.reject(changed));
    const host = await hostHook(() => useStreetsDownload(engine.client), {});
    await host.act(() => void host.value.start(false));
    await host.settle();
    expect(engine.sent).toEqual([['startBasemapDownload', {}]]);
    expect(host.value.started).toBe(false);
    expect(host.value.problem).toEqual({ text: changed.message, newVersion: true });
    await host.unmount();
  });

  it('sends nothing when the source is not usable (the caller said why)', async () => {
    const engine = basemapEngine(async () => ESTIMATE);
    const host = await hostHook(() => useStreetsDownload(engine.client, async () => null), {});
    await host.act(() => void host.value.start(false));
    await host.settle();
    expect(engine.sent).toEqual([]);
    expect(host.value).toMatchObject({ started: false, busy: false, problem: null, estimate: null });
    await host.unmount();
  });
});
