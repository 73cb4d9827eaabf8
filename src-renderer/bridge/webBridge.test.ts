import { describe, expect, it } from 'vitest';
import { callNames } from '../../src-shared/contract';
import type { EventStream } from './eventStream';
import { encodeWire } from '../../src-shared/wire';
import { createWebBridge, type FetchLike } from './webBridge';

type Request = { url: string; init: Parameters<FetchLike>[1] };

/** A fake fetch that records requests and answers with `answer(url)`. */
function fakeFetch(answer: (url: string) => { status: number; body: unknown } | Error) {
  const requests: Request[] = [];
  const fetch: FetchLike = async (url, init) => {
    requests.push({ url, init });
    const reply = answer(url);
    if (reply instanceof Error) throw reply;
    return {
      status: reply.status,
      text: async () => (reply.body === undefined ? '' : encodeWire(reply.body)),
    };
  };
  return { fetch, requests };
}

const noEvents: EventStream = { subscribe: () => () => {} };

const status = { keySet: true, keychain: { available: true as const, backend: 'Secret Service' } };

describe('web bridge', () => {
  it('has one method per call of the contract, plus onEvent', () => {
    const bridge = createWebBridge({ fetch: fakeFetch(() => new Error('unused')).fetch, events: noEvents });
    for (const name of callNames) expect(typeof bridge[name]).toBe('function');
    expect(typeof bridge.onEvent).toBe('function');
  });

  it('POSTs the JSON input to the call path with the session cookie and returns the Result', async () => {
    const { fetch, requests } = fakeFetch(() => ({ status: 200, body: { ok: true, value: status } }));
    const bridge = createWebBridge({ fetch, events: noEvents });

    const result = await bridge.setApiKey({ key: 'abcd-1234' });

    expect(result).toEqual({ ok: true, value: status });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe('/api/call/setApiKey');
    expect(request?.init.method).toBe('POST');
    expect(request?.init.credentials).toBe('same-origin');
    expect(request?.init.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(request?.init.body ?? '')).toEqual({ key: 'abcd-1234' });
  });

  it('sends an empty object for calls without input', async () => {
    const { fetch, requests } = fakeFetch(() => ({ status: 200, body: { ok: true, value: status } }));
    await createWebBridge({ fetch, events: noEvents }).getKeyStatus({});
    expect(requests[0]?.init.body).toBe('{}');
  });

  it('passes the engine’s errors through, field issues included', async () => {
    const error = {
      code: 'bad_input',
      message: 'Invalid input for updateSettings: baseUrl: Enter a full URL',
      issues: [{ path: 'baseUrl', message: 'Enter a full URL' }],
    };
    const { fetch } = fakeFetch(() => ({ status: 400, body: { ok: false, error } }));
    const result = await createWebBridge({ fetch, events: noEvents }).updateSettings({ baseUrl: 'nope' });
    expect(result).toEqual({ ok: false, error });
  });

  it('answers offline in plain words when the host cannot be reached', async () => {
    const { fetch } = fakeFetch(() => new TypeError('Failed to fetch'));
    const result = await createWebBridge({ fetch, events: noEvents }).getSettings({});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('offline');
      expect(result.error.message).toMatch(/not answering/);
    }
  });

  it('explains a lost session when the host refuses without a Result', async () => {
    const { fetch } = fakeFetch(() => ({ status: 401, body: undefined }));
    const result = await createWebBridge({ fetch, events: noEvents }).getSettings({});
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
  });

  it('reports a body that is not a Result as a bad response', async () => {
    const { fetch } = fakeFetch(() => ({ status: 500, body: { message: 'boom' } }));
    const result = await createWebBridge({ fetch, events: noEvents }).getSettings({});
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    if (!result.ok) expect(result.error.message).toContain('HTTP 500');
  });

  it('restores typed arrays from the wire form', async () => {
    const column = new Float64Array([1.5, -2.25]);
    const { fetch } = fakeFetch(() => ({ status: 200, body: { ok: true, value: { column } } }));
    const result = await createWebBridge({ fetch, events: noEvents }).getSettings({});
    expect(result.ok && (result.value as unknown as { column: unknown }).column).toEqual(column);
  });

  it('subscribes to events through the event stream', () => {
    const calls: string[] = [];
    const events: EventStream = {
      subscribe: () => {
        calls.push('subscribe');
        return () => calls.push('unsubscribe');
      },
    };
    const bridge = createWebBridge({ fetch: fakeFetch(() => new Error('unused')).fetch, events });
    const unsubscribe = bridge.onEvent(() => {});
    unsubscribe();
    expect(calls).toEqual(['subscribe', 'unsubscribe']);
  });
});
