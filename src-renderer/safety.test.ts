/**
 * Guards that hold for the whole renderer: index.html's Content-Security-Policy is strict, and no
 * component renders text as HTML (API text must never become markup).
 */
import { describe, expect, it } from 'vitest';
import indexHtml from './index.html?raw';

const sources = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

function cspOf(html: string): Map<string, string> {
  const content = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
  return new Map(
    content
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name ?? '', values.join(' ')]),
  );
}

describe('renderer safety', () => {
  it('index.html carries the strict CSP', () => {
    expect(Object.fromEntries(cspOf(indexHtml))).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data: blob:",
      'worker-src': "'self' blob:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
    });
  });

  it('renders no HTML strings anywhere', () => {
    const files = Object.keys(sources);
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) =>
      /dangerouslySetInnerHTML|\.innerHTML\s*=|insertAdjacentHTML/.test(sources[file] ?? ''),
    );
    expect(offenders).toEqual([]);
  });
});
