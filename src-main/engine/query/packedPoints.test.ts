import { describe, expect, it } from 'vitest';
import { playbackPoints } from '../analysis/playback';
import { mapPoints } from './mapPoints';
import { packPoints } from './packedPoints';
import type { Resolved } from './service';

/** A snapshot of `n` incidents, incident i of type i (so `n` distinct types), all on one day. */
function resolvedOf(n: number): Resolved {
  const snapshot = {
    cdid: Float64Array.from({ length: n }, (_, i) => 1000 + i),
    day: new Int32Array(n).fill(20_000),
    lat: Float64Array.from({ length: n }, (_, i) => i),
    lon: Float64Array.from({ length: n }, (_, i) => -i),
    type: Uint16Array.from({ length: n }, (_, i) => i),
    types: { size: n, values: Array.from({ length: n }, (_, i) => `T${i}`) },
  };
  const rows = Uint32Array.from({ length: n }, (_, i) => n - 1 - i);
  return { snapshot, set: { count: n, rows } } as unknown as Resolved;
}

describe('packed points: one packing for the map and the playback', () => {
  it('indexes types by first appearance, the 256th and later sharing "Other types"', () => {
    const r = resolvedOf(300);
    const p = packPoints(r.snapshot, r.set);
    expect(p.types).toHaveLength(256);
    expect(p.types[0]).toBe('T299');
    expect(p.types[255]).toBe('Other types');
    expect(p.typeIndex[0]).toBe(0);
    expect(p.typeIndex[299]).toBe(255);
    expect([p.lat[1], p.lon[1]]).toEqual([298, -298]);
  });

  it('gives the map and the playback the same columns for the same rows', () => {
    const r = resolvedOf(40);
    const map = mapPoints(r);
    const play = playbackPoints(r);
    expect(map.types).toEqual(play.types);
    expect([...map.typeIndex]).toEqual([...play.typeIndex]);
    expect([...map.lat]).toEqual([...play.lat]);
    expect([...map.cdid].slice(0, 2)).toEqual([1039, 1038]);
  });
});
