import { describe, expect, it, vi } from 'vitest';
import { hardenSession, withCsp, type SessionLike } from './session';

type HeadersListener = (
  details: { responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

function fakeSession() {
  const fake = {
    headersListener: undefined as HeadersListener | undefined,
    requestHandler: undefined as
      ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | undefined,
    checkHandler: undefined as (() => boolean) | undefined,
  };
  const session = {
    webRequest: { onHeadersReceived: (listener: HeadersListener) => (fake.headersListener = listener) },
    setPermissionRequestHandler: (handler: typeof fake.requestHandler) => (fake.requestHandler = handler),
    setPermissionCheckHandler: (handler: typeof fake.checkHandler) => (fake.checkHandler = handler),
  } as unknown as SessionLike;
  return { session, fake };
}

describe('hardenSession', () => {
  it('applies the CSP to every response, replacing any the server sent', () => {
    const { session, fake } = fakeSession();
    hardenSession(session, () => "default-src 'self'");
    const callback = vi.fn();
    fake.headersListener?.(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': ["default-src 'self'"] },
    });
  });

  it('asks for the policy on every response, so a settings change takes effect', () => {
    const { session, fake } = fakeSession();
    let policy = 'a';
    hardenSession(session, () => policy);
    const seen: unknown[] = [];
    fake.headersListener?.({}, (r) => seen.push(r.responseHeaders?.['Content-Security-Policy']));
    policy = 'b';
    fake.headersListener?.({}, (r) => seen.push(r.responseHeaders?.['Content-Security-Policy']));
    expect(seen).toEqual([['a'], ['b']]);
  });

  it('denies every permission request and check', () => {
    const { session, fake } = fakeSession();
    hardenSession(session, () => '');
    const granted = vi.fn();
    fake.requestHandler?.({}, 'geolocation', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(fake.checkHandler?.()).toBe(false);
  });

  it('withCsp keeps other headers', () => {
    expect(withCsp({ A: ['1'] }, 'x')).toEqual({ A: ['1'], 'Content-Security-Policy': ['x'] });
  });
});
