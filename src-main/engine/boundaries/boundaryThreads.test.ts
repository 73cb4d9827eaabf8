/**
 * The boundary helper threads' lifecycle (boundaryThread.ts `BoundaryThreads`): a thread that
 * answered runs the next job (starting one cost ~0.1 s of CPU per job); a cancelled job or a
 * thread that fails ends that thread, and the next job starts a fresh one and works; an idle thread
 * is ended after its idle time or when the engine closes; two jobs at once run on two threads.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src-shared/geo';
import { wavyRing, zigzagStar } from '../../../src-shared/geo/rings.testing';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { BoundaryJobCancelled, BoundaryRefused, BoundaryThreads } from './boundaryThread';

let tmp: TempDir;
let threads: BoundaryThreads | undefined;
beforeEach(() => {
  tmp = makeTempDir();
});
afterEach(() => {
  threads?.close();
  threads = undefined;
  tmp.remove();
});

function geojson(name: string, rings: readonly (readonly LatLon[])[]): string {
  const file = path.join(tmp.path, name);
  const features = rings.map((ring, k) => ({
    type: 'Feature',
    properties: { name: `beat ${k + 1}` },
    geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!].map(([lat, lon]) => [lon, lat])] },
  }));
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
}

const twoBeats = (): string =>
  geojson('beats.geojson', [wavyRing(40, 41.8, -87.6, 0.01), wavyRing(40, 41.9, -87.7, 0.01)]);
const read = (t: BoundaryThreads, file: string, signal?: AbortSignal) =>
  t.run({ kind: 'read', file, name: path.basename(file) }, signal ? { signal } : {});

describe('the boundary helper threads', () => {
  it('run successive jobs on one thread: a read, its areas, a refusal and another read', async () => {
    threads = new BoundaryThreads();
    const file = twoBeats();
    const held = await read(threads, file);
    expect(held.features.map((f) => f.index)).toEqual([1, 2]);
    // The packed corners came across whole (moved, not copied): 40 corners of lat, lon.
    expect(held.features[0]!.geometry.coords.length).toBe(80);
    const shapes = await threads.run({ kind: 'areas', features: held.features, nameField: 'name' });
    expect(shapes.map((s) => s.name)).toEqual(['beat 1', 'beat 2']);
    const bow = geojson('bow.geojson', [
      [
        [41.8, -87.6],
        [41.81, -87.59],
        [41.8, -87.59],
        [41.81, -87.6],
      ],
    ]);
    await expect(read(threads, bow)).rejects.toBeInstanceOf(BoundaryRefused);
    expect((await read(threads, file)).features).toHaveLength(2);
    expect(threads.started).toBe(1);
  });

  it('ends the thread of a cancelled job; the next job starts a fresh one and works', async () => {
    threads = new BoundaryThreads();
    const star = geojson('star.geojson', [zigzagStar(249_998)]);
    const cancel = new AbortController();
    const reading = read(threads, star, cancel.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cancel.abort();
    await expect(reading).rejects.toBeInstanceOf(BoundaryJobCancelled);
    expect((await read(threads, twoBeats())).features).toHaveLength(2);
    expect(threads.started).toBe(2);
  });

  it('reports a thread that runs out of memory; the next job starts a fresh one and works', async () => {
    threads = new BoundaryThreads({ resourceLimits: { maxOldGenerationSizeMb: 48 } });
    const big = geojson(
      'big.geojson',
      Array.from({ length: 500 }, (_, k) => wavyRing(1999, 41.7 + (k % 25) * 0.02, -87.9, 0.008)),
    );
    const failed = await read(threads, big).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(BoundaryRefused);
    expect((failed as Error).message).toMatch(/memory|stopped unexpectedly/i);
    expect((await read(threads, twoBeats())).features).toHaveLength(2);
    expect(threads.started).toBe(2);
  });

  it('ends an idle thread after its idle time: the next job starts another', async () => {
    threads = new BoundaryThreads({ idleMs: 50 });
    const file = twoBeats();
    await read(threads, file);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await read(threads, file);
    expect(threads.started).toBe(2);
  });

  it('runs two jobs at once on two threads, then keeps one for the next', async () => {
    threads = new BoundaryThreads();
    const file = twoBeats();
    const both = await Promise.all([read(threads, file), read(threads, file)]);
    expect(both.map((h) => h.features.length)).toEqual([2, 2]);
    expect(threads.started).toBe(2);
    await read(threads, file);
    expect(threads.started).toBe(2);
  });

  it('starts no job once closed', async () => {
    threads = new BoundaryThreads();
    const file = twoBeats();
    await read(threads, file);
    threads.close();
    await expect(read(threads, file)).rejects.toBeInstanceOf(BoundaryJobCancelled);
    expect(threads.started).toBe(1);
  });
});
