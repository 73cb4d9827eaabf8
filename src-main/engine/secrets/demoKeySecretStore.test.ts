/** The demo key in memory: only when no keychain answers, only for the demo's synthetic key. */
import { describe, expect, it } from 'vitest';
import { DEMO_KEY_BACKEND, withInMemoryDemoKey } from './demoKeySecretStore';
import { createMemorySecretStore } from './memorySecretStore';
import { KeychainUnavailableError } from './secretStore';

const DEMO = 'blotter-demo-abcdef123456';

describe('withInMemoryDemoKey', () => {
  it('changes nothing while the keychain answers', async () => {
    const keychain = createMemorySecretStore();
    const store = withInMemoryDemoKey(keychain, DEMO);
    expect(await store.get('api-key:1')).toBeNull();
    await store.set('api-key:1', DEMO);
    expect(keychain.entries.get('api-key:1')).toBe(DEMO);
    expect(await store.probe()).toEqual({ available: true, backend: 'memory (tests only)' });
    expect(await store.delete('api-key:1')).toBe(true);
    expect(keychain.entries.size).toBe(0);
  });

  it('answers the demo key from memory when no keychain is reachable, and takes no other secret', async () => {
    const keychain = createMemorySecretStore();
    keychain.unavailable = { available: false, problem: 'No D-Bus session is running.', fix: 'Start one.' };
    const store = withInMemoryDemoKey(keychain, DEMO);
    expect(await store.probe()).toEqual({ available: true, backend: DEMO_KEY_BACKEND });
    await store.set('api-key:1', DEMO);
    expect(await store.get('api-key:1')).toBe(DEMO);
    await expect(store.set('api-key:1', 'a-real-customer-key')).rejects.toBeInstanceOf(
      KeychainUnavailableError,
    );
    expect(await store.delete('api-key:1')).toBe(true);
    expect(await store.get('api-key:1')).toBeNull();
    expect(keychain.entries.size).toBe(0);
  });
});
