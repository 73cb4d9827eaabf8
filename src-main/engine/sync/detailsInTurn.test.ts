/**
 * A description fetched while an import's merge holds the archive (store/writeTurns.ts) is written
 * in its turn, after the merge's commit — not refused "locked", and not lost.
 */
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { openDatabase, type Db } from '../store/database';
import { recordOf } from '../store/incidents/apiRecord';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { localFailureOf } from '../store/localFailure';
import { openSecondWriter, WriteTurns } from '../store/writeTurns';
import { localDescriptions } from './details';
import { createIncidentWriter } from './incidentWriter';

let dir: TempDir;
let engineDb: Db;
let helperDb: Db;

beforeEach(() => {
  dir = makeTempDir();
  const file = path.join(dir.path, 'blotter.sqlite');
  engineDb = openDatabase(file);
  createIncidentRepo(engineDb).upsertFromApi(
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
  helperDb = openSecondWriter(file);
});
afterEach(() => {
  helperDb.close();
  engineDb.close();
  dir.remove();
});

const description = () =>
  engineDb.prepare('SELECT description FROM incidents WHERE cdid = 7').pluck().get() as string | null;

it('keeps a description that arrives during a merge once the merge commits', async () => {
  const turns = new WriteTurns(engineDb);
  const writer = createIncidentWriter(engineDb);
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  const merge = turns.hold(async () => {
    helperDb.exec('BEGIN IMMEDIATE');
    helperDb.prepare('UPDATE incidents SET address = ? WHERE cdid = 7').run('100 Block of N Elm St');
    await committed;
    helperDb.exec('COMMIT');
  });
  await new Promise((resolve) => setTimeout(resolve, 5));

  // Without its turn the write is refused at once (the merge holds the lock)…
  let refused: unknown = null;
  try {
    await localDescriptions(writer).keep(7, 'A bicycle taken from a rack.', 2000);
  } catch (error) {
    refused = error;
  }
  expect(localFailureOf(refused, engineDb.name)?.code).toBe('database_locked');

  // …in its turn it waits for the merge and lands after it.
  let kept = false;
  const keeping = localDescriptions(writer, (write) => turns.take(write))
    .keep(7, 'A bicycle taken from a rack.', 2000)
    .then(() => (kept = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(kept).toBe(false);
  commit();
  await merge;
  await keeping;
  expect(description()).toBe('A bicycle taken from a rack.');
  expect(engineDb.prepare('SELECT address FROM incidents WHERE cdid = 7').pluck().get()).toBe(
    '100 Block of N Elm St',
  );
});
