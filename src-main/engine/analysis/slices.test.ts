/**
 * Analysis work in slices (issue 31): CompStat's membership test finds the same incidents as one
 * plain loop and repeat locations' per-place output maps like Array.map; between slices a turn of
 * the event loop (a call asked meanwhile is answered before the work ends), and a cancel stops it.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisCancelled } from './runner';
import { pickColumns } from './points';
import { drainSliced, membersSliced, pickColumnsSliced, slicedMap } from './slices';

const N = 50_000;
const lat = Float64Array.from({ length: N }, (_, k) => 40 + ((k * 7919) % 1000) / 1000);
const lon = Float64Array.from({ length: N }, (_, k) => -75 + ((k * 104729) % 1000) / 1000);
const inside = (la: number, lo: number) => la < 40.5 && lo > -74.7;
const plain = () => {
  const out: number[] = [];
  for (let k = 0; k < N; k++) if (inside(lat[k]!, lon[k]!)) out.push(k);
  return out;
};

describe('membersSliced', () => {
  it('finds the same incidents as one plain loop, pausing between slices', async () => {
    let pauses = 0;
    const pause = () => {
      pauses++;
      return Promise.resolve();
    };
    const sliced = await membersSliced(lat, lon, inside, { pause, sliceMs: 0 });
    expect(sliced).toEqual(plain());
    expect(sliced.length).toBeGreaterThan(0);
    expect(pauses).toBe(Math.floor(N / 1024));
    expect(await membersSliced(lat, lon, null)).toEqual(Array.from({ length: N }, (_, k) => k));
  });

  it('lets a call asked mid-test be answered before the test ends', async () => {
    const order: string[] = [];
    const run = async (sliceMs: number) => {
      order.length = 0;
      const job = membersSliced(lat, lon, inside, { sliceMs }).then(() => order.push('job'));
      setImmediate(() => order.push('call'));
      await job;
      await new Promise((r) => setImmediate(r));
      return [...order];
    };
    expect(await run(0)).toEqual(['call', 'job']);
    // One stretch (no slices): the call waits for the whole test.
    expect(await run(Infinity)).toEqual(['job', 'call']);
  });

  it('stops between slices when the job is cancelled', async () => {
    let checks = 0;
    const checkCancelled = () => {
      if (++checks === 3) throw new AnalysisCancelled();
    };
    await expect(membersSliced(lat, lon, inside, { sliceMs: 0, checkCancelled })).rejects.toBeInstanceOf(
      AnalysisCancelled,
    );
    expect(checks).toBe(3);
  });
});

describe('slicedMap', () => {
  it('maps like Array.map, pausing between slices, and stops when cancelled', async () => {
    const items = Array.from({ length: 100 }, (_, k) => k);
    let pauses = 0;
    const pause = () => {
      pauses++;
      return Promise.resolve();
    };
    expect(await slicedMap(items, (k) => k * k, { pause, sliceMs: 0 })).toEqual(items.map((k) => k * k));
    expect(pauses).toBe(100);
    const order: string[] = [];
    const job = slicedMap(items, (k) => k, { sliceMs: 0 }).then(() => order.push('job'));
    setImmediate(() => order.push('call'));
    await job;
    expect(order).toEqual(['call', 'job']);
    let checks = 0;
    const checkCancelled = () => {
      if (++checks === 2) throw new AnalysisCancelled();
    };
    await expect(slicedMap(items, (k) => k, { sliceMs: 0, checkCancelled })).rejects.toBeInstanceOf(
      AnalysisCancelled,
    );
  });
});

describe('drainSliced', () => {
  function* counted(n: number): Generator<void, number, void> {
    let sum = 0;
    for (let k = 0; k < n; k++) {
      sum += k;
      yield;
    }
    return sum;
  }

  it("gives the steps' result, pausing between slices; a call asked meanwhile is answered first", async () => {
    let pauses = 0;
    const pause = () => {
      pauses++;
      return Promise.resolve();
    };
    expect(await drainSliced(counted(100), { pause, sliceMs: 0 })).toBe(4950);
    expect(pauses).toBe(100);
    const order: string[] = [];
    const job = drainSliced(counted(100), { sliceMs: 0 }).then(() => order.push('job'));
    setImmediate(() => order.push('call'));
    await job;
    expect(order).toEqual(['call', 'job']);
    let checks = 0;
    const checkCancelled = () => {
      if (++checks === 2) throw new AnalysisCancelled();
    };
    await expect(drainSliced(counted(100), { sliceMs: 0, checkCancelled })).rejects.toBeInstanceOf(
      AnalysisCancelled,
    );
  });

  it('copies the same columns as pickColumns', async () => {
    const n = 200_000;
    const source = {
      lat: Float64Array.from({ length: n }, (_, k) => 40 + k / n),
      lon: Float64Array.from({ length: n }, (_, k) => -75 - k / n),
      day: Int32Array.from({ length: n }, (_, k) => 19_000 + (k % 400)),
      type: Uint16Array.from({ length: n }, (_, k) => k % 7),
    };
    const rows = Uint32Array.from({ length: n / 2 }, (_, k) => 2 * k + 1);
    let pauses = 0;
    const sliced = await pickColumnsSliced(source, rows, {
      sliceMs: 0,
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    expect(sliced).toEqual(pickColumns(source, rows));
    expect(pauses).toBeGreaterThan(0);
  });
});
