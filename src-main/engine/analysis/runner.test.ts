import { describe, expect, it } from 'vitest';
import { kernelDensity } from './kde';
import { AnalysisRefused } from './points';
import { AnalysisCancelled, runAnalysis } from './runner';
import { seededRandom } from './random';
import { CENTRE_X, CENTRE_Y, concat, discPoints, toLatLon, uniformPoints } from './testPoints';

const points = toLatLon(concat(uniformPoints(2000, 6000, 1), discPoints(200, CENTRE_X, CENTRE_Y, 200, 2)));

describe('analysis on a helper thread', () => {
  it('answers as the same analysis in this thread, with progress up to the end', async () => {
    const progress: number[] = [];
    const result = await runAnalysis(
      {
        kind: 'kde',
        columns: { lat: points.lat, lon: points.lon },
        options: { radiusM: 800, cellSizeM: 100 },
      },
      { onProgress: (f) => progress.push(f) },
    );
    const here = kernelDensity(points.lat, points.lon, { radiusM: 800, cellSizeM: 100 });
    expect(result.density).toEqual(here.density);
    expect(result.grid.cellOf(CENTRE_X, CENTRE_Y)).toBe(here.grid.cellOf(CENTRE_X, CENTRE_Y));
    expect(result.utm.epsg).toBe(32616);
    expect(result.parameters).toEqual(here.parameters);
    // The caller's columns were copied, not taken.
    expect(points.lat.length).toBe(2200);
    const hot = await runAnalysis({ kind: 'hotspots', columns: { ...points }, options: {} });
    expect(hot.bin[hot.grid.cellOf(CENTRE_X, CENTRE_Y)]).toBe(3);
    expect(progress.at(-1)).toBe(1);
  });

  it('stops the thread when cancelled', async () => {
    const random = seededRandom(3);
    const day = Int32Array.from({ length: points.lat.length }, () => Math.floor(random() * 365));
    const controller = new AbortController();
    const run = runAnalysis(
      {
        kind: 'nearRepeat',
        columns: { lat: points.lat, lon: points.lon, day },
        options: { space: [0, 500, 1000], spaceUnit: 'm', time: [0, 7, 14], iterations: 9_999 },
      },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(run).rejects.toBeInstanceOf(AnalysisCancelled);
  });

  it('passes a refusal back in words', async () => {
    const few = toLatLon(uniformPoints(12, 1000, 4));
    const run = runAnalysis({ kind: 'hotspots', columns: few, options: {} }, { transfer: true });
    await expect(run).rejects.toBeInstanceOf(AnalysisRefused);
    await expect(
      runAnalysis({ kind: 'hotspots', columns: toLatLon(uniformPoints(12, 1000, 4)), options: {} }),
    ).rejects.toThrow(/at least 30 incidents; the filters match 12/);
  });
});
