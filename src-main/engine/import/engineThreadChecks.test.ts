/**
 * A file under the check threads' size (8 MB of CSV, or any JSON) is read and checked on the
 * engine's own thread: it must leave that thread's loop free every few milliseconds, as the map's
 * counts are asked meanwhile (issue 31). Measured as this thread's own CPU time between two turns
 * of its loop (Linux's /proc/thread-self/schedstat), so a loaded machine's scheduling does not count.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import { openTestEngine, type TestEngine } from '../export/exportTesting';

const ROWS = 40_000;
let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

/** This thread's time on a CPU (ms). */
const ownCpuMs = (): number =>
  Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;

/** The most CPU this thread spent between two turns of its loop while `job` ran. */
async function longestOwnStretch<T>(job: () => Promise<T>): Promise<{ value: T; ms: number }> {
  let last = ownCpuMs();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = ownCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    const value = await job();
    longest = Math.max(longest, ownCpuMs() - last);
    return { value, ms: longest };
  } finally {
    clearInterval(ticker);
  }
}

describe('checking a smaller file on the engine thread', () => {
  it('reads and checks it in short stretches: a 3 MB records-system CSV through a State Plane mapping', async () => {
    const rows = [
      'Incident Number,Offense,Block Address,Date Reported,Time Reported,X Coordinate,Y Coordinate',
    ];
    for (let k = 0; k < ROWS; k++) {
      rows.push(
        `25-${String(k).padStart(7, '0')},${['23F', '13A', '220'][k % 3]},${(k % 97) * 100} BLK MAIN ST,04/${String(1 + (k % 28)).padStart(2, '0')}/2025,${String(k % 24).padStart(2, '0')}15,${2_440_000 + ((k * 7919) % 90_000)},${6_930_000 + ((k * 104_729) % 80_000)}`,
      );
    }
    const mapping = {
      name: 'RMS',
      id: 'Incident Number',
      type: 'Offense',
      address: 'Block Address',
      date: 'Date Reported',
      time: 'Time Reported',
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
    };
    // A first small preview: the code's first run (compiled, the zone's projection built) is not timed.
    const small = t.file('small.csv', rows.slice(0, 11).join('\n') + '\n');
    await t.call<ImportPreview>('previewImport', { source: { path: small }, mapping });
    const file = t.file('rms.csv', rows.join('\n') + '\n');
    const { value: preview, ms } = await longestOwnStretch(() =>
      t.call<ImportPreview>('previewImport', { source: { path: file }, mapping }),
    );
    expect(preview.rows).toBe(ROWS);
    expect(preview.valid).toBe(ROWS);
    // Read 1 MB at a time, each piece's rows (parsed, projected, normalized, staged) took 70–150 ms,
    // and the staged rows' sorted copy at the end (their ids came hashed, in random order) ~50 ms.
    expect(ms).toBeLessThan(50);
    // Without that copy the run sorts them itself: every row is written.
    const result = await t.call<ImportResult>('runImport', {
      importId: preview.importId,
      onBadRows: 'abort',
    });
    expect(result.inserted).toBe(ROWS);
    expect(t.db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(ROWS);
  }, 60_000);
});
