import { describe, expect, it, vi } from 'vitest';
import { isAppUrl } from './appUrl';
import { hardenWebContents, type HardenableContents } from './hardening';

const APP = 'app://blotter/index.html';

type Listener = (event: { preventDefault(): void; url: string }) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const contents = {
    on(event: string, listener: Listener) {
      listeners.set(event, listener);
      return contents;
    },
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
      openHandler = handler;
    },
  } as HardenableContents;
  const fire = (name: string, url = '') => {
    const event = { url, preventDefault: vi.fn() };
    listeners.get(name)?.(event);
    return event.preventDefault.mock.calls.length > 0;
  };
  const open = (url: string) => openHandler?.({ url });
  return { contents, fire, open };
}

function setup() {
  const openExternal = vi.fn(() => Promise.resolve());
  const fake = fakeContents();
  hardenWebContents(fake.contents, { isAppUrl: (url) => isAppUrl(APP, url), openExternal });
  return { ...fake, openExternal };
}

describe('hardenWebContents', () => {
  it('prevents navigation to a foreign URL and allows the app page', () => {
    const { fire, openExternal } = setup();
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-navigate', 'http://example.com/')).toBe(true);
    expect(fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(fire('will-navigate', 'file:///app/out/renderer/index.html')).toBe(true);
    expect(fire('will-navigate', 'app://other/index.html')).toBe(true);
    expect(fire('will-navigate', `${APP}#/table`)).toBe(false);
    expect(openExternal).toHaveBeenCalledTimes(1);
    expect(openExternal).toHaveBeenCalledWith('https://evil.example/');
  });

  it('denies every window.open, handing only https links to the OS browser', () => {
    const { open, openExternal } = setup();
    expect(open('https://api.example.com/crimes/123')).toEqual({ action: 'deny' });
    for (const url of [
      'http://api.example.com/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
    ]) {
      expect(open(url)).toEqual({ action: 'deny' });
    }
    expect(open('https://user:pw@example.com/')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://api.example.com/crimes/123']]);
  });

  it('prevents <webview> from attaching', () => {
    expect(setup().fire('will-attach-webview')).toBe(true);
  });
});
