import { describe, expect, it } from 'vitest';
import type { BasemapInfo } from '../../../src-shared/basemap';
import { sameBasemap } from './sameBasemap';

const info = (over: Partial<BasemapInfo> = {}): BasemapInfo => ({
  kind: 'extract',
  status: 'ready',
  problem: null,
  attribution: 'Synthetic demo streets',
  name: null,
  format: 'mvt',
  minZoom: 0,
  maxZoom: 15,
  bounds: [-87.7, 41.8, -87.6, 41.9],
  cache: null,
  ...over,
});

describe('the street layer is kept when the basemap is the same', () => {
  it('is the same basemap after an unrelated settings change, whatever the tile cache holds', () => {
    expect(sameBasemap(info(), info())).toBe(true);
    expect(
      sameBasemap(
        info({ kind: 'url', cache: { tiles: 1, bytes: 10 } }),
        info({ kind: 'url', cache: { tiles: 9, bytes: 90 } }),
      ),
    ).toBe(true);
  });
  it('is another basemap when the extract grew, the source changed or it broke', () => {
    expect(sameBasemap(info(), info({ bounds: [-87.7, 41.8, -87.6, 42.0] }))).toBe(false);
    expect(sameBasemap(info(), info({ kind: 'file' }))).toBe(false);
    expect(sameBasemap(info(), info({ status: 'error', problem: 'gone' }))).toBe(false);
    expect(sameBasemap(null, info())).toBe(false);
    expect(sameBasemap(null, null)).toBe(true);
  });
});
