import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { areaEditsByMode, standaloneAreaEdits, type AreaEdits } from './areaEdits';
import { createAreaStore, type AreaRecord } from './areaStore';

const loop = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.4 };

let tmp: TempDir;
let db: Db;
beforeEach(() => {
  tmp = makeTempDir();
  db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
});
afterEach(() => {
  db.close();
  tmp.remove();
});

/** An office's areas as far as these tests go: it records what it was asked. */
function recordingOffice(asked: string[]): AreaEdits {
  const no = (what: string) => async (): Promise<never> => {
    asked.push(what);
    throw new Error(`office ${what}`);
  };
  return {
    get: () => undefined,
    list: () => [],
    create: no('create'),
    createAll: no('createAll'),
    rename: no('rename'),
    setRefreshMinutes: no('setRefreshMinutes'),
    setPaused: no('setPaused'),
    remove: no('remove'),
  };
}

describe('the areas behind one interface', () => {
  it('answer from the folder while it is standalone, from the office while it is joined, and the folder again after', async () => {
    const asked: string[] = [];
    let joined: AreaEdits | null = null;
    const areas = areaEditsByMode(standaloneAreaEdits(db, createAreaStore(db)), () => joined);

    const own = await areas.create({ name: 'Loop', shape: loop }, 1);
    expect(areas.list().map((a) => a.name)).toEqual(['Loop']);

    joined = recordingOffice(asked);
    await expect(areas.rename(own.id, 'The Loop')).rejects.toThrow('office rename');
    await expect(areas.createAll([{ name: 'West', shape: loop }], 2)).rejects.toThrow('office createAll');
    await expect(areas.remove(own.id, false)).rejects.toThrow('office remove');
    expect(asked).toEqual(['rename', 'createAll', 'remove']);
    expect(areas.list()).toEqual([]); // the office's reads: none

    joined = null;
    await areas.rename(own.id, 'The Loop');
    expect(createAreaStore(db).get(own.id)?.name).toBe('The Loop');
  });

  it('make a standalone folder’s several areas all or none', async () => {
    const areas = standaloneAreaEdits(db, createAreaStore(db));
    const made: AreaRecord[] = await areas.createAll(
      [
        { name: 'North', shape: loop },
        { name: 'South', shape: { ...loop, lat: 41.85 } },
      ],
      1,
    );
    expect(made.map((a) => a.name)).toEqual(['North', 'South']);
    // A second batch whose last area cannot be written (no name) leaves none of its areas.
    await expect(
      areas.createAll(
        [
          { name: 'East', shape: { ...loop, lon: -87.6 } },
          { name: null as unknown as string, shape: loop },
        ],
        2,
      ),
    ).rejects.toThrow(/NOT NULL/);
    expect(areas.list().map((a) => a.name)).toEqual(['North', 'South']);
  });
});
