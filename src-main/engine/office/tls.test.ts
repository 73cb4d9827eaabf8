import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrateOffice } from './migrate';
import { openOfficePool } from './officeDb';
import { parseOfficeUrl } from './officeUrl';
import { startTestPostgres, type TestPostgres } from './pgTesting';

let server: TestPostgres & { caFile: string | null };
let other: string;

beforeAll(async () => {
  server = await startTestPostgres('blotter_office', { tls: true });
  other = mkdtempSync(join(tmpdir(), 'blotter-ca-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=Someone else',
      '-keyout',
      join(other, 'k'),
      '-out',
      join(other, 'ca.pem'),
    ],
    { stdio: 'pipe' },
  );
}, 60_000);
afterAll(() => {
  server?.stop();
  rmSync(other, { recursive: true, force: true });
});

test('TLS with the certificate verified: the office CA is accepted, another CA is refused', async () => {
  const good = openOfficePool(
    parseOfficeUrl(`${server.url}?sslmode=verify-full&sslrootcert=${server.caFile}`),
    server.password,
  );
  const schema = await migrateOffice(good);
  expect(schema.version).toBeGreaterThan(0);
  const ssl = await good.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
  expect(ssl.rows[0]?.ssl).toBe(true);
  await good.end();

  const bad = openOfficePool(
    parseOfficeUrl(`${server.url}?sslmode=verify-full&sslrootcert=${join(other, 'ca.pem')}`),
    server.password,
  );
  await expect(bad.query('SELECT 1')).rejects.toThrow(/certificate/);
  await bad.end();
}, 60_000);
