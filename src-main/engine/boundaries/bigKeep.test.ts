/**
 * A big preview kept as a layer is inserted on the boundary helper thread's own writer connection
 * while the engine holds its write turns (service.ts `keepOnThread`): the engine thread answers a
 * call asked while that transaction is open, every feature lands as read, and a sync page's write
 * asked meanwhile waits its turn and lands after it — never "database is locked".
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src-shared/geo';
import { wavyRing } from '../../../src-shared/geo/rings.testing';
import type { QueryService } from '../query/service';
import { openDatabase, type Db } from '../store/database';
import { recordOf } from '../store/incidents/apiRecord';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { WriteTurns } from '../store/writeTurns';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { KEEP_ON_THREAD_BYTES, LayerService } from './service';

/** 100 beats of 1,000 corners: 1.6 MB packed, past KEEP_ON_THREAD_BYTES. */
const rings: LatLon[][] = Array.from({ length: 100 }, (_, k) =>
  wavyRing(1000, 41.8 + (k % 10) * 0.01, -87.7 + Math.floor(k / 10) * 0.01, 0.004),
);

function beatsFile(dir: string): string {
  const file = path.join(dir, 'beats.geojson');
  const features = rings.map((ring, k) => ({
    type: 'Feature',
    properties: { name: `beat ${k + 1}` },
    geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!].map(([lat, lon]) => [lon, lat])] },
  }));
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
}

/** Makes the keep's insert last: heavy work for each feature (a trigger the helper's connection meets). */
function slowKeep(db: Db): void {
  db.exec(`CREATE TRIGGER slow_keep AFTER INSERT ON reference_features BEGIN
    SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000) SELECT x FROM c);
  END`);
}

/**
 * Resolves once another connection holds the file's write lock (the keep's transaction is open),
 * polling on this thread's event loop: a write on this thread would commit before a poll ran.
 */
async function writeLockHeld(file: string): Promise<void> {
  const probe = new Database(file);
  probe.pragma('busy_timeout = 0');
  try {
    for (const until = Date.now() + 10_000; Date.now() < until;) {
      try {
        probe.exec('BEGIN IMMEDIATE');
        probe.exec('ROLLBACK');
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error('no other connection took the write lock');
  } finally {
    probe.close();
  }
}

const storedRings = (db: Db, layerId: number): LatLon[][] =>
  (
    db
      .prepare('SELECT geometry FROM reference_features WHERE layer_id = ? ORDER BY ordinal')
      .pluck()
      .all(layerId) as string[]
  ).map((g) => (JSON.parse(g) as { polygons: LatLon[][][] }).polygons[0]![0]!);

describe('keeping a big layer on the helper thread', () => {
  let fx: EngineFixture;
  beforeEach(() => {
    fx = openEngine({ host: 'cli' });
  });
  afterEach(() => fx.close());

  it('answers a call asked while the layer is written, and the whole layer lands', async () => {
    const preview = await fx.call<{ previewId: string }>('previewBoundaries', {
      source: { path: beatsFile(fx.tmp.path) },
    });
    slowKeep(fx.engine.context.db);
    await fx.call('countIncidents', { filters: { preset: 'all' } }); // the snapshot is loaded
    const order: string[] = [];
    const kept = fx
      .call<{ id: number; featureCount: number }>('importLayer', {
        previewId: preview.previewId,
        name: 'Beats',
        nameField: 'name',
      })
      .finally(() => order.push('keep'));
    await writeLockHeld(fx.engine.context.db.name);
    await fx.call('countIncidents', { filters: { preset: 'all' } });
    order.push('count');
    const layer = await kept;
    expect(order).toEqual(['count', 'keep']);
    expect(layer.featureCount).toBe(100);
    expect(storedRings(fx.engine.context.db, layer.id)).toEqual(rings);
  }, 60_000);
});

describe('a sync page beside a big keep', () => {
  let dir: TempDir;
  let db: Db;
  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir.path, 'blotter.sqlite'));
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it('waits its turn and lands after the layer, never "database is locked"', async () => {
    const turns = new WriteTurns(db);
    const layers = new LayerService({ db, dataDir: dir.path, query: {} as QueryService, writeTurns: turns });
    const preview = await layers.preview({ path: beatsFile(dir.path) });
    slowKeep(db);
    const kept = layers.importLayer(preview.previewId, 'Beats', 'name');
    await writeLockHeld(db.name);
    let layersBeforePage = -1;
    const page = turns.take(() => {
      layersBeforePage = db.prepare('SELECT count(*) FROM reference_layers').pluck().get() as number;
      createIncidentRepo(db).upsertFromApi(
        recordOf({
          cdid: 7,
          type: 'Theft',
          address: '100 Block of N Oak St',
          lat: 41.88,
          lon: -87.63,
          link: 'https://crime.example.test/incident/7',
          date: '05/10/25 01:30 PM',
        }),
        1000,
      );
    });
    const layer = await kept;
    await page; // not refused "database is locked"
    expect(layersBeforePage).toBe(1); // written once the layer was in

    expect(db.prepare('SELECT count(*) FROM incidents WHERE cdid = 7').pluck().get()).toBe(1);
    expect(
      db.prepare('SELECT count(*) FROM reference_features WHERE layer_id = ?').pluck().get(layer.id),
    ).toBe(100);
    layers.close();
  }, 60_000);

  it(`keeps a small preview here as before (${KEEP_ON_THREAD_BYTES} packed bytes or less)`, async () => {
    const turns = new WriteTurns(db);
    const layers = new LayerService({ db, dataDir: dir.path, query: {} as QueryService, writeTurns: turns });
    const file = path.join(dir.path, 'one.geojson');
    const ring = wavyRing(50);
    writeFileSync(
      file,
      JSON.stringify({
        type: 'Feature',
        properties: { name: 'one' },
        geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!].map(([lat, lon]) => [lon, lat])] },
      }),
    );
    const preview = await layers.preview({ path: file });
    const keeping = layers.importLayer(preview.previewId, 'One', 'name');
    expect(turns.busy).toBe(false); // a big keep holds the turns from its call on
    const layer = await keeping;
    expect(storedRings(db, layer.id)).toEqual([ring]);
    layers.close();
  });
});
