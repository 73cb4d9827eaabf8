/**
 * Cancelling a boundary file's read (cancelBoundaryPreview): the read's helper thread is ended, the
 * preview answers `cancelled` in plain words with nothing held, and the next read starts a fresh
 * thread and works. With nothing being read, the call answers false.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src-shared/geo';
import { wavyRing } from '../../../src-shared/geo/rings.testing';
import type { Engine } from '../engine';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import type { LayerService } from './service';

let fx: EngineFixture;
let engine: Engine;

beforeEach(() => {
  fx = openEngine({ host: 'cli' });
  ({ engine } = fx);
});
afterEach(() => fx.close());

function geojsonFile(name: string, rings: LatLon[][]): string {
  const file = path.join(fx.tmp.path, name);
  const features = rings.map((ring, k) => ({
    type: 'Feature',
    properties: { name: `beat ${k + 1}` },
    geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!].map(([lat, lon]) => [lon, lat])] },
  }));
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
}

const layers = (): LayerService => engine.context.services.layers;
const heldPreviews = (): number => (layers() as unknown as { previews: Map<string, unknown> }).previews.size;

describe('cancelBoundaryPreview', () => {
  it('stops a big read: the preview answers cancelled, nothing is held, and the next read works', async () => {
    // 250 beats of 4,000 corners (1M corners, ~40 MB): the read takes seconds on the helper thread.
    const big = geojsonFile(
      'beats.geojson',
      Array.from({ length: 250 }, (_, k) =>
        wavyRing(3999, 41.7 + (k % 25) * 0.02, -87.9 + Math.floor(k / 25) * 0.02, 0.008),
      ),
    );
    const reading = engine.dispatch('previewBoundaries', { source: { path: big } });
    // Asked until the read has started (the call's answer says whether one was running).
    let cancelled = false;
    for (let k = 0; k < 200 && !cancelled; k++) {
      await sleep(10);
      const r = await engine.dispatch('cancelBoundaryPreview', {});
      expect(r.ok).toBe(true);
      cancelled = r.ok && r.value.cancelled;
    }
    expect(cancelled).toBe(true);
    const started = Date.now();
    expect(await reading).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'cancelled', message: 'Reading cancelled.' }),
    });
    // The thread was ended at once, not left to finish the read.
    expect(Date.now() - started).toBeLessThan(500);
    expect(heldPreviews()).toBe(0);
    expect(layers().threads.started).toBe(1);
    // Nothing is being read now.
    expect(await engine.dispatch('cancelBoundaryPreview', {})).toEqual({
      ok: true,
      value: { cancelled: false },
    });

    const small = geojsonFile('one.geojson', [wavyRing(100)]);
    const again = await engine.dispatch('previewBoundaries', { source: { path: small } });
    expect(again).toMatchObject({ ok: true, value: { featureCount: 1, fileName: 'one.geojson' } });
    // The cancelled read's thread was ended: this read ran on a fresh one.
    expect(layers().threads.started).toBe(2);
    expect(heldPreviews()).toBe(1);
  }, 60_000);

  it('answers false when no boundary file is being read, and a read finished is kept', async () => {
    expect(await engine.dispatch('cancelBoundaryPreview', {})).toEqual({
      ok: true,
      value: { cancelled: false },
    });
    const small = geojsonFile('one.geojson', [wavyRing(100)]);
    expect(await engine.dispatch('previewBoundaries', { source: { path: small } })).toMatchObject({
      ok: true,
    });
    expect(await engine.dispatch('cancelBoundaryPreview', {})).toEqual({
      ok: true,
      value: { cancelled: false },
    });
    expect(heldPreviews()).toBe(1);
  });
});
