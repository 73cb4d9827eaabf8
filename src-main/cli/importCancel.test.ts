/**
 * Ctrl-C during `blotter import FILE`, run as a process: the merge on the engine's helper thread is
 * cancelled (cancelImport), its transaction rolls back, the command says so and exits 130; the
 * archive holds what it held before, and the next import works.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { CLI, ROOT, runCli, type Ran } from './cliTesting';

let dir: TempDir;
beforeAll(() => {
  dir = makeTempDir('blotter-cli-import-cancel-');
});
afterAll(() => dir.remove());

const BASE = 9_000_000;
const env = { BLOTTER_API_KEY: undefined };

function csv(first: number, rows: number): string {
  const lines = ['cdid,type,occurred_local,timezone,address,lat,lon,link,description'];
  for (let k = 0; k < rows; k++)
    lines.push(
      `${first + k},Theft,2025-03-0${1 + (k % 9)}T10:30,America/Chicago,${k} N CLARK ST,41.8,-87.6,,`,
    );
  return `${lines.join('\n')}\n`;
}

/** `blotter ARGS` as a process, `signal` sent to it once `ready()` says so. */
function runSignalled(args: string[], ready: () => boolean, signal: NodeJS.Signals): Promise<Ran> {
  const merged: Record<string, string | undefined> = { ...process.env, BLOTTER_LOG_LEVEL: 'warn' };
  delete merged.BLOTTER_API_KEY;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: ROOT, env: merged as NodeJS.ProcessEnv, timeout: 120_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        clearInterval(poll);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    const poll = setInterval(() => {
      if (!ready()) return;
      clearInterval(poll);
      child.kill(signal);
    }, 20);
  });
}

it('cancels the writing on Ctrl-C: exit 130, nothing written, and the next import works', async () => {
  const data = `${dir.path}/data`;
  const small = `${dir.path}/small.csv`;
  const large = `${dir.path}/large.csv`;
  writeFileSync(small, csv(1_000, 20));
  writeFileSync(large, csv(BASE, 20_000));
  expect((await runCli('', ['import', small, '--data-dir', data], { env })).code).toBe(0);

  const db = new Database(`${data}/blotter.sqlite`);
  db.pragma('busy_timeout = 0'); // the poll below is refused at once while the merge writes
  try {
    // The merge lasts: heavy work for one imported row in 1,000, on the helper thread's connection.
    db.exec(`CREATE TRIGGER slow_import AFTER INSERT ON incidents
      WHEN new.cdid >= ${BASE} AND new.cdid % 1000 = 0 BEGIN
        SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT x FROM c);
      END`);
    /** Whether the merge holds the write lock (this connection is refused at once). */
    const merging = (): boolean => {
      try {
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return false;
      } catch {
        return true;
      }
    };
    const cancelled = await runSignalled(['import', large, '--data-dir', data], merging, 'SIGINT');
    expect(cancelled.stderr).toContain('Import cancelled; nothing was written.');
    expect(cancelled.stdout).not.toContain('Imported:');
    expect(cancelled.code).toBe(130);
    expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(20);

    db.exec('DROP TRIGGER slow_import');
    const again = await runCli('', ['import', large, '--data-dir', data], { env });
    expect(again.stdout).toContain('Imported: 20000 added');
    expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(20_020);
  } finally {
    db.close();
  }
}, 180_000);
