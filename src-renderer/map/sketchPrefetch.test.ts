import { describe, expect, it, vi } from 'vitest';
import type { Client } from '../bridge/client';
import { prefetchSketch, takeSketch } from './sketchPrefetch';

const fakeClient = () => {
  const call = vi.fn(() => Promise.resolve({ total: 0 }));
  return { client: { call } as unknown as Client, call };
};

describe('the first sketch, asked for early', () => {
  it('is taken once by the map when filters and zoom match; otherwise the map asks itself', async () => {
    const { client, call } = fakeClient();
    prefetchSketch(client, { preset: '90d' }, 11);
    await takeSketch(client, { preset: '90d' }, 11);
    expect(call).toHaveBeenCalledTimes(1);
    await takeSketch(client, { preset: '90d' }, 11); // taken already: a new call
    expect(call).toHaveBeenCalledTimes(2);
    prefetchSketch(client, { preset: '90d' }, 11);
    await takeSketch(client, { preset: '90d' }, 12); // the map is at another zoom
    expect(call).toHaveBeenCalledTimes(4);
    expect(call).toHaveBeenLastCalledWith('getMapSketch', { filters: { preset: '90d' }, zoom: 12 });
  });
});
