import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { putOfficeIncidents } from '../engine/office/officeArchive';
import { officeRow } from '../engine/office/officeRows.testing';
import { startTestPostgres, type TestPostgres } from '../engine/office/pgTesting';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { requireKeychain } from '../engine/testing/requireKeychain';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { runCli, runEntry, syncArgs, CLI } from './cliTesting';
import { pgpassPassword, pullProgressLine } from './officeCommand';
import { migrateOffice } from '../engine/office/migrate';
import { openOfficePool } from '../engine/office/officeDb';
import { parseOfficeUrl } from '../engine/office/officeUrl';

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

describe('~/.pgpass', () => {
  test('the first line matching host, port, database and user gives the password (* and escapes)', () => {
    const text =
      '# office\ndb.lan:5432:other:blotter:nope\n*:5432:archive:blotter:s3cr\\:et\n*:*:*:*:fallback\n';
    expect(pgpassPassword(text, { host: 'db.lan', port: 5432, database: 'archive', user: 'blotter' })).toBe(
      's3cr:et',
    );
    expect(pgpassPassword(text, { host: 'x', port: 1, database: 'y', user: 'z' })).toBe('fallback');
    expect(pgpassPassword('', { host: 'x', port: 1, database: 'y', user: 'z' })).toBeNull();
  });
});

describe('blotter office', () => {
  let server: TestPostgres;
  let tmp: TempDir;
  let dir: string;
  const run = (args: string[], env: Record<string, string | undefined> = {}, stdin?: string) =>
    runEntry(CLI, ['office', ...args, '--data-dir', dir], {
      env: { PGPASSWORD: undefined, PGPASSFILE: path.join(tmp.path, 'no-pgpass'), ...env },
      ...(stdin !== undefined ? { stdin } : {}),
    });

  beforeAll(async () => {
    await requireKeychain();
    server = await startTestPostgres();
    tmp = makeTempDir();
    dir = path.join(tmp.path, 'data');
  }, 60_000);
  afterAll(() => {
    server?.stop();
    tmp?.remove();
  });

  test('join refuses a password in the URL, takes it from PGPASSWORD, ~/.pgpass or stdin; status; exit 8 when PostgreSQL is down; leave keeps the replica', async () => {
    const withPassword = server.url.replace('office_admin@', `office_admin:${server.password}@`);
    const refused = await run(['join', '--pg', withPassword]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/PGPASSWORD/);
    expect(refused.stderr + refused.stdout).not.toContain(server.password);

    const wrong = await run(['join', '--pg', server.url], { PGPASSWORD: 'wrong' });
    expect(wrong.code).toBe(8);

    // The schema comes from the first join; the office then holds rows written by its leader.
    const viaStdin = await run(['join', '--pg', server.url, '--password-stdin'], {}, `${server.password}\n`);
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    const admin = await server.admin();
    await putOfficeIncidents(
      admin,
      Array.from({ length: 500 }, (_, i) => officeRow(i + 1)),
    );
    await admin.end();

    const pgpass = path.join(tmp.path, 'pgpass');
    writeFileSync(pgpass, `127.0.0.1:${server.port}:${server.database}:${server.user}:${server.password}\n`, {
      mode: 0o600,
    });
    const joined = await run(['join', '--pg', server.url], { PGPASSFILE: pgpass });
    expect(joined.code, joined.stderr).toBe(0);
    expect(lastJson(joined.stdout)).toMatchObject({ joined: true, pulled: { incidents: 500 } });

    // Later commands use the password the keychain holds for this folder.
    const status = await run(['status'], { PGPASSWORD: undefined });
    expect(status.code, status.stderr).toBe(0);
    expect(lastJson(status.stdout)).toMatchObject({
      joined: true,
      reachable: true,
      officeIncidents: 500,
      replicaIncidents: 500,
      url: server.url,
    });

    // Incidents arrive only through the replica: an import into the folder is refused, nothing written.
    const file = path.join(tmp.path, 'rows.csv');
    writeFileSync(
      file,
      'cdid,type,address,lat,lon,date\n9000001,Theft,1 Main St,41.85,-87.65,2025-05-01T10:00:00\n',
    );
    const imported = await runEntry(CLI, ['import', file, '--data-dir', dir]);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(/replica of an office database/);

    // An area added in office mode is the office's: created in PostgreSQL, back in the replica by the pull.
    const added = await runEntry(CLI, [
      'areas',
      'add',
      '--name',
      'Loop',
      '--circle',
      '41.85,-87.65,1',
      '--data-dir',
      dir,
    ]);
    expect(added.code, added.stderr).toBe(0);
    // So is an area made from a boundary file's polygon.
    const beats = path.join(tmp.path, 'beats.geojson');
    const ring = [
      [-87.66, 41.86],
      [-87.64, 41.86],
      [-87.64, 41.88],
      [-87.66, 41.88],
      [-87.66, 41.86],
    ];
    writeFileSync(
      beats,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { name: 'Beat 111' },
            geometry: { type: 'Polygon', coordinates: [ring] },
          },
        ],
      }),
    );
    const fromFile = await runEntry(CLI, ['layers', 'import', beats, '--as-areas', '--data-dir', dir]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const office = await server.admin();
    const areas = await office.query('SELECT name FROM areas ORDER BY name');
    await office.end();
    expect(areas.rows).toEqual([{ name: 'Beat 111' }, { name: 'Loop' }]);

    server.stop();
    const down = await run(['status']);
    expect(down.code).toBe(8);
    expect(lastJson(down.stdout)).toMatchObject({ joined: true, reachable: false, replicaIncidents: 500 });
    expect(down.stderr).toMatch(/cannot be reached/);

    const left = await run(['leave']);
    expect(left.code).toBe(0);
    expect(lastJson(left.stdout)).toEqual({ left: true, replicaIncidents: 500 });
    const standalone = await run(['status']);
    expect(standalone.code).toBe(0);
    expect(lastJson(standalone.stdout)).toMatchObject({ joined: false, replicaIncidents: 500 });
  }, 120_000);
});

describe('blotter office join --seed', () => {
  let server: TestPostgres;
  let tmp: TempDir;
  let dir: string;
  const run = (args: string[]) =>
    runEntry(CLI, [...args, '--data-dir', dir], {
      env: { PGPASSWORD: server.password, PGPASSFILE: path.join(tmp.path, 'no-pgpass') },
    });

  beforeAll(async () => {
    await requireKeychain();
    server = await startTestPostgres();
    tmp = makeTempDir();
    dir = path.join(tmp.path, 'data');
  }, 60_000);
  afterAll(() => {
    server?.stop();
    tmp?.remove();
  });

  test('a folder with its own archive is offered to seed an empty office; --seed uploads it', async () => {
    const added = await run(['areas', 'add', '--name', 'Loop', '--circle', '41.85,-87.65,1']);
    expect(added.code, added.stderr).toBe(0);

    const offered = await run(['office', 'join', '--pg', server.url]);
    expect(offered.code).toBe(1);
    expect(offered.stderr).toMatch(/the office is empty: seed it with this archive \(--seed/);

    const seeded = await run(['office', 'join', '--pg', server.url, '--seed']);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(lastJson(seeded.stdout)).toMatchObject({ joined: true, pulled: { areas: 1 } });
    const admin = await server.admin();
    const areas = await admin.query('SELECT id::int AS id, name FROM areas');
    await admin.end();
    expect(areas.rows).toEqual([{ id: 1, name: 'Loop' }]);
    const listed = await run(['areas', 'list']);
    expect(listed.stdout).toContain('Loop');
  }, 120_000);
});

describe('blotter sync --area on a second desktop of the office', () => {
  const KEY = 'cli-office-area-key-20';
  let server: TestPostgres;
  let sim: Simulator;
  let tmp: TempDir;

  beforeAll(async () => {
    await requireKeychain();
    server = await startTestPostgres();
    sim = await startSimulator({
      seed: 5,
      scale: 20_000,
      spanDays: 40,
      keys: [
        { key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 },
      ],
    });
    tmp = makeTempDir();
  }, 60_000);
  afterAll(async () => {
    await sim?.close();
    server?.stop();
    tmp?.remove();
  });

  test('finds the area another desktop made (it pulls first) instead of creating a second one that every sync would request again', async () => {
    const env = { PGPASSWORD: server.password, PGPASSFILE: path.join(tmp.path, 'no-pgpass') };
    const a = path.join(tmp.path, 'a');
    const b = path.join(tmp.path, 'b');
    // Both join first: B's replica knows nothing of the area A is about to make.
    for (const dir of [a, b]) {
      const joined = await runEntry(CLI, ['office', 'join', '--pg', server.url, '--data-dir', dir], { env });
      expect(joined.code, joined.stderr).toBe(0);
    }
    const area = '41.8837,-87.6289,0.3';
    const first = await runCli(KEY, syncArgs(a, sim.url, area), { env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(KEY, syncArgs(b, sim.url, area), { env });
    expect(second.code, second.stderr).toBe(0);

    const admin = await server.admin();
    const areas = await admin.query('SELECT id::int AS id, name FROM areas');
    await admin.end();
    expect(areas.rows).toEqual([{ id: 1, name: area }]);
    const listed = await runEntry(CLI, ['areas', 'list', '--data-dir', b], { env });
    expect(listed.stdout.trim().split('\n')).toHaveLength(1);
    expect(listed.stdout).toMatch(/^1\t/);
  });
});

describe('blotter office join into an office that holds an archive', () => {
  const ROWS = 20_000;
  let server: TestPostgres;
  let tmp: TempDir;

  beforeAll(async () => {
    await requireKeychain();
    server = await startTestPostgres();
    tmp = makeTempDir();
    const pool = openOfficePool(parseOfficeUrl(server.url), server.password);
    try {
      await migrateOffice(pool);
      await putOfficeIncidents(
        pool,
        Array.from({ length: ROWS }, (_, i) => officeRow(i + 1)),
      );
    } finally {
      await pool.end();
    }
  }, 120_000);
  afterAll(() => {
    server?.stop();
    tmp?.remove();
  });

  test('says how far its catch-up got on stderr, rising to the total', async () => {
    const joined = await runEntry(
      CLI,
      ['office', 'join', '--pg', server.url, '--data-dir', path.join(tmp.path, 'd')],
      {
        env: { PGPASSWORD: server.password, PGPASSFILE: path.join(tmp.path, 'no-pgpass') },
      },
    );
    expect(joined.code, joined.stderr).toBe(0);
    expect(lastJson(joined.stdout)).toMatchObject({ joined: true, pulled: { incidents: ROWS } });
    const lines = joined.stderr.split('\n').filter((l) => l.startsWith('office: pulled '));
    expect(lines.length, joined.stderr).toBeGreaterThan(0);
    const percents = lines.map((l) => Number(/pulled (\d+)% \([\d,]+ of 20,000 rows\)/.exec(l)?.[1]));
    expect(percents.every((p) => p > 0 && p <= 100)).toBe(true);
    expect(percents).toEqual([...new Set(percents)].sort((a, b) => a - b));
  }, 120_000);
});

test('a pull progress line: the percent of the total, or the rows when the total is not known', () => {
  expect(pullProgressLine(8_000, 20_000)).toBe('office: pulled 40% (8,000 of 20,000 rows)\n');
  expect(pullProgressLine(1_500, null)).toBe('office: pulled 1,500 rows\n');
});
