import { describe, expect, it } from 'vitest';
import type { BlotterApi, Result } from '../../src-shared/contract';
import { BridgeCallError, createClient } from './client';

const settings = {
  baseUrl: null,
  plan: 'developer' as const,
  ratePerMinute: null,
  windowDays: null,
  effective: { ratePerMinute: 60, windowDays: 90 },
};

/** A BlotterApi whose every call answers `result`. */
function apiAnswering(result: Result<unknown>): BlotterApi {
  const answer = async () => result;
  return new Proxy({} as BlotterApi, {
    get: (_target, prop) => (prop === 'onEvent' ? () => () => {} : answer),
  });
}

describe('client', () => {
  it('unwraps a successful Result', async () => {
    const client = createClient(apiAnswering({ ok: true, value: settings }));
    await expect(client.call('getSettings', {})).resolves.toEqual(settings);
  });

  it('throws a BridgeCallError carrying code, message and field issues', async () => {
    const client = createClient(
      apiAnswering({
        ok: false,
        error: {
          code: 'bad_input',
          message: 'Invalid input for updateSettings',
          issues: [{ path: 'baseUrl', message: 'Enter a full URL' }],
        },
      }),
    );
    const error = await client.call('updateSettings', { baseUrl: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeCallError);
    if (!(error instanceof BridgeCallError)) return;
    expect(error.call).toBe('updateSettings');
    expect(error.code).toBe('bad_input');
    expect(error.message).toBe('Invalid input for updateSettings');
    expect(error.issueFor('baseUrl')).toBe('Enter a full URL');
    expect(error.issueFor('plan')).toBeUndefined();
  });

  it('gives an empty issue list when the engine sent none', async () => {
    const client = createClient(apiAnswering({ ok: false, error: { code: 'internal', message: 'Broke' } }));
    const error = await client.call('getSettings', {}).catch((e: unknown) => e);
    expect(error instanceof BridgeCallError && error.issues).toEqual([]);
  });
});
