import { describe, expect, it } from 'vitest';
import { appUrlOf, devServerUrlFrom, isAppUrl } from './appUrl';

describe('app URL', () => {
  const file = appUrlOf({ rendererIndex: '/app/out/renderer/index.html' });

  it('is the built index.html, or the dev server in development', () => {
    expect(file).toBe('file:///app/out/renderer/index.html');
    expect(appUrlOf({ rendererIndex: '/x', devServerUrl: 'http://localhost:5173' })).toBe(
      'http://localhost:5173/',
    );
  });

  it('matches only the same file, or the same dev-server origin', () => {
    expect(isAppUrl(file, 'file:///app/out/renderer/index.html#/map')).toBe(true);
    expect(isAppUrl(file, 'file:///app/out/renderer/other.html')).toBe(false);
    expect(isAppUrl(file, 'file:///etc/passwd')).toBe(false);
    expect(isAppUrl(file, 'not a url')).toBe(false);
    const dev = 'http://localhost:5173/';
    expect(isAppUrl(dev, 'http://localhost:5173/index.html')).toBe(true);
    expect(isAppUrl(dev, 'http://localhost:5174/')).toBe(false);
    expect(isAppUrl(dev, 'http://localhost.evil.example:5173/')).toBe(false);
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
