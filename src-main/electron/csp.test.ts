import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, STRICT_CSP, tileSource } from './csp';

const directive = (csp: string, name: string): string[] =>
  csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

describe('contentSecurityPolicy', () => {
  it('is strict by default', () => {
    expect(STRICT_CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
        "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
        "frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('lets a configured tile server serve images and fetches, and nothing else', () => {
    const csp = contentSecurityPolicy({ tileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' });
    expect(directive(csp, 'img-src')).toContain('https://*.tile.example.org');
    expect(directive(csp, 'connect-src')).toContain('https://*.tile.example.org');
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
  });

  it('opens the dev server only when asked', () => {
    const csp = contentSecurityPolicy({ devServerUrl: 'http://localhost:5173/' });
    expect(directive(csp, 'connect-src')).toEqual(["'self'", 'http://localhost:5173', 'ws://localhost:5173']);
    expect(directive(STRICT_CSP, 'script-src')).toEqual(["'self'"]);
  });

  it('refuses a tile URL that could inject directives', () => {
    expect(() => tileSource("https://x.org; script-src 'unsafe-eval'")).toThrow();
    expect(() => tileSource('javascript:alert(1)')).toThrow();
    expect(tileSource('http://localhost:8080/tiles/{z}/{x}/{y}.png')).toBe('http://localhost:8080');
  });
});

describe("the renderer's index.html", () => {
  it('carries the same policy in its <meta> tag (for file:// loads, which have no headers)', () => {
    const html = readFileSync(new URL('../../src-renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)?.[1];
    // frame-ancestors is ignored in a <meta> policy; the header and the window's own settings cover it.
    const withoutFrameAncestors = STRICT_CSP.replace(/; frame-ancestors [^;]*/, '');
    expect(meta).toBe(withoutFrameAncestors);
  });
});
