import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireKeychain } from '../testing/requireKeychain';
import { createKeytarSecretStore } from './keytarSecretStore';
import { KEYCHAIN_SERVICE, KeychainUnavailableError, apiKeyAccount } from './secretStore';

const run = promisify(execFile);

describe('keytar secret store on the real keychain', () => {
  const store = createKeytarSecretStore();
  const account = apiKeyAccount(randomUUID());

  beforeAll(requireKeychain);
  afterAll(async () => {
    await store.delete(account).catch(() => false);
  });

  it('probes the keychain', async () => {
    expect(await store.probe()).toEqual({ available: true, backend: 'Secret Service (libsecret)' });
  });

  it('probes while another process writes and deletes items of the service, without crashing', async () => {
    // A demo starting next to another host (e2e, two workers, one keyring) killed the host: the
    // probe listed the service's items with keytar's findCredentials, which segfaults on an item
    // another process is writing (libsecret: "secret_value_get_text: assertion 'value' failed"),
    // within about two seconds of such writes. Both sides run as processes of their own here.
    const service = `Blotter-probe-race-${randomUUID()}`;
    const module = fileURLToPath(new URL('./keytarSecretStore.ts', import.meta.url));
    const tsx = (code: string, timeout: number) =>
      run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout });
    const store = `(await import(${JSON.stringify(module)})).createKeytarSecretStore({ service: ${JSON.stringify(service)} })`;
    const writer = execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const s = ${store}; process.stdout.write('writing\\n');` +
          `for (let i = 0; ; i++) { await s.set('a' + (i % 5), 'secret-' + i); await s.delete('a' + ((i + 2) % 5)); }`,
      ],
      { timeout: 60_000 },
    );
    try {
      await new Promise((resolve) => writer.stdout?.once('data', resolve));
      const { stdout } = await tsx(
        `const s = ${store}; const seen = new Set();` +
          'for (const t = Date.now(); Date.now() - t < 4_000; ) seen.add(JSON.stringify(await s.probe()));' +
          'process.stdout.write(JSON.stringify([...seen]));',
        60_000,
      );
      expect(JSON.parse(stdout)).toEqual([
        JSON.stringify({ available: true, backend: 'Secret Service (libsecret)' }),
      ]);
    } finally {
      writer.kill();
      const cleanup = createKeytarSecretStore({ service });
      for (let i = 0; i < 5; i++) await cleanup.delete(`a${i}`).catch(() => false);
    }
  }, 60_000);

  it('sets, reads, replaces and deletes a secret that other tools read under service Blotter', async () => {
    expect(await store.get(account)).toBeNull();
    await store.set(account, 'first-key-1234');
    expect(await store.get(account)).toBe('first-key-1234');
    const lookup = () =>
      execFileSync('secret-tool', ['lookup', 'service', KEYCHAIN_SERVICE, 'account', account], {
        encoding: 'utf8',
      });
    expect(lookup()).toBe('first-key-1234');

    await store.set(account, 'second-key-5678');
    expect(await store.get(account)).toBe('second-key-5678');
    expect(lookup()).toBe('second-key-5678');

    expect(await store.delete(account)).toBe(true);
    expect(await store.delete(account)).toBe(false);
    expect(await store.get(account)).toBeNull();
    expect(lookup).toThrow(); // secret-tool exits 1 when nothing matches
  });
});

describe('keytar secret store without a keychain', () => {
  it('reports a missing D-Bus session with a fix, quickly, in a process that has none', async () => {
    const module = fileURLToPath(new URL('./keytarSecretStore.ts', import.meta.url));
    const code =
      `const { createKeytarSecretStore } = await import(${JSON.stringify(module)});` +
      'process.stdout.write(JSON.stringify(await createKeytarSecretStore().probe()));';
    const started = Date.now();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/blotter-test-bus' },
      timeout: 20_000,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    const status = JSON.parse(stdout) as Record<string, unknown>;
    expect(status.available).toBe(false);
    expect(status.problem).toMatch(/No D-Bus session is running/);
    expect(status.fix).toMatch(/dbus-run-session/);
  });

  it('turns a missing libsecret into an install hint, and never falls back to storing the key', async () => {
    const store = createKeytarSecretStore({
      platform: 'linux',
      load: () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')),
    });
    const status = await store.probe();
    expect(status).toMatchObject({ available: false, problem: expect.stringMatching(/libsecret/) });
    expect(status.available === false && status.fix).toMatch(
      /sudo apt-get install gnome-keyring libsecret-1-0/,
    );
    await expect(store.set('a', 'secret-value')).rejects.toBeInstanceOf(KeychainUnavailableError);
    await expect(store.get('a')).rejects.toBeInstanceOf(KeychainUnavailableError);
  });

  it('gives up on a keychain that does not answer (a locked gnome-keyring) after the probe timeout', async () => {
    const never = () => new Promise<never>(() => undefined);
    const store = createKeytarSecretStore({
      platform: 'linux',
      probeTimeoutMs: 100,
      load: async () => ({
        getPassword: never,
        setPassword: never,
        deletePassword: never,
      }),
    });
    const status = await store.probe();
    expect(status).toMatchObject({
      available: false,
      problem: expect.stringMatching(/did not answer within 0.1 s/),
    });
  });

  it.each([
    ['darwin', /Keychain Access/],
    ['win32', /Credential Manager/],
  ] as const)('names the fix on %s', async (platform, fix) => {
    const store = createKeytarSecretStore({ platform, load: () => Promise.reject(new Error('denied')) });
    await expect(store.get('a')).rejects.toThrow(KeychainUnavailableError);
    const failing = createKeytarSecretStore({
      platform,
      load: async () => {
        const fail = () =>
          Promise.reject(new Error('The user name or passphrase you entered is not correct.'));
        return { getPassword: fail, setPassword: fail, deletePassword: fail };
      },
    });
    const status = await failing.probe();
    expect(status.available === false && status.fix).toMatch(fix);
  });
});
