/**
 * The office password, like the API key, never reaches a log line or an error message: once given
 * to joinOffice (or read back from the keychain) it is redacted wherever it would appear.
 */
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { formatLine, redact } from '../log';
import type { SecretStore } from '../secrets/secretStore';
import { openDatabase } from '../store/database';
import { createSettingsRepo } from '../store/settingsRepo';
import { makeTempDir } from '../testing/tempDir';
import { createOfficeService } from './service';

const tmp = makeTempDir();
afterAll(() => tmp.remove());

const memorySecrets = (): SecretStore => {
  const m = new Map<string, string>();
  return {
    get: async (a) => m.get(a) ?? null,
    set: async (a, s) => void m.set(a, s),
    delete: async (a) => m.delete(a),
    probe: async () => ({ available: true }) as Awaited<ReturnType<SecretStore['probe']>>,
  };
};

test('a password given to join is redacted from what is logged or said, even when the join fails', async () => {
  const db = openDatabase(path.join(tmp.path, 'office.sqlite'));
  const office = createOfficeService({
    db,
    settings: createSettingsRepo(db),
    secrets: memorySecrets(),
    emit: () => undefined,
  });
  const password = 'Office-Pw-7f3a9c';
  // Nothing listens on port 1: the join fails as unreachable, after the password was handed over.
  await expect(office.join('postgres://blotter@127.0.0.1:1/office', password, false)).rejects.toThrow();
  expect(redact(`pg said: password "${password}" is wrong`)).toBe('pg said: password "REDACTED" is wrong');
  const line = formatLine('warn', 'office', 'join failed', { error: new Error(`login as ${password}`) });
  expect(line).not.toContain(password);
  expect(line).toContain('REDACTED');
  db.close();
});
