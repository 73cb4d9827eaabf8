import { describe, expect, it } from 'vitest';
import { appUrlOf, devServerUrlFrom, isAppUrl } from './appUrl';

describe('app URL', () => {
  const app = appUrlOf();

  it('is the renderer on its own app:// scheme (never file://), or the dev server in development', () => {
    expect(app).toBe('app://blotter/index.html');
    expect(appUrlOf({ devServerUrl: 'http://localhost:5173' })).toBe('http://localhost:5173/');
  });

  it('matches only the app page, or the same dev-server origin', () => {
    expect(isAppUrl(app, 'app://blotter/index.html#/map')).toBe(true);
    expect(isAppUrl(app, 'app://blotter/index.html#/report?job=j1')).toBe(true);
    expect(isAppUrl(app, 'app://blotter/')).toBe(true);
    expect(isAppUrl(app, 'app://blotter/other.html')).toBe(false);
    expect(isAppUrl(app, 'app://evil/index.html')).toBe(false);
    expect(isAppUrl(app, 'app://user@blotter/index.html')).toBe(false);
    expect(isAppUrl(app, 'file:///app/out/renderer/index.html')).toBe(false);
    expect(isAppUrl(app, 'file:///etc/passwd')).toBe(false);
    expect(isAppUrl(app, 'https://blotter/index.html')).toBe(false);
    expect(isAppUrl(app, 'not a url')).toBe(false);
    const dev = 'http://localhost:5173/';
    expect(isAppUrl(dev, 'http://localhost:5173/index.html')).toBe(true);
    expect(isAppUrl(dev, 'http://localhost:5174/')).toBe(false);
    expect(isAppUrl(dev, 'http://localhost.evil.example:5173/')).toBe(false);
    expect(isAppUrl(dev, 'file:///x')).toBe(false);
  });

  it('honours ELECTRON_RENDERER_URL only unpackaged and on loopback', () => {
    expect(devServerUrlFrom({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false)).toBe(
      'http://localhost:5173/',
    );
    expect(devServerUrlFrom({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, true)).toBeUndefined();
    expect(devServerUrlFrom({ ELECTRON_RENDERER_URL: 'https://evil.example' }, false)).toBeUndefined();
    expect(devServerUrlFrom({}, false)).toBeUndefined();
  });
});
