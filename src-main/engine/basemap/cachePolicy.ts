/**
 * How long a fetched tile stays fresh, from its response headers (RFC 9111, as a private cache):
 * `Cache-Control: no-store` → not stored; `no-cache` → stored but revalidated on every view;
 * `max-age=N` → N seconds; else `Expires` − `Date`; else 10 % of the age since `Last-Modified`
 * (at most a week); else an hour. Stale tiles are revalidated with If-None-Match / If-Modified-Since.
 */

export type Freshness = { store: boolean; freshForMs: number };

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;
export const DEFAULT_FRESH_MS = HOUR_MS;

type HeaderGet = (name: string) => string | null;

export function cacheDirectives(header: string | null): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (const part of (header ?? '').split(',')) {
    const [rawName, ...rest] = part.split('=');
    const name = (rawName ?? '').trim().toLowerCase();
    if (!name) continue;
    const value = rest.join('=').trim().replace(/^"|"$/g, '');
    out.set(name, rest.length ? value : true);
  }
  return out;
}

export function freshness(get: HeaderGet, now: number): Freshness {
  const cc = cacheDirectives(get('cache-control'));
  if (cc.has('no-store')) return { store: false, freshForMs: 0 };
  if (cc.has('no-cache')) return { store: true, freshForMs: 0 };
  const maxAge = cc.get('max-age');
  if (typeof maxAge === 'string' && /^\d+$/.test(maxAge)) {
    const age = Number(get('age') ?? 0);
    return { store: true, freshForMs: Math.max(0, Number(maxAge) - (Number.isFinite(age) ? age : 0)) * 1000 };
  }
  const date = Date.parse(get('date') ?? '') || now;
  const expires = get('expires');
  if (expires !== null) {
    const at = Date.parse(expires);
    return { store: true, freshForMs: Number.isNaN(at) ? 0 : Math.max(0, at - date) };
  }
  const lastModified = Date.parse(get('last-modified') ?? '');
  if (!Number.isNaN(lastModified) && lastModified < date) {
    return { store: true, freshForMs: Math.min(WEEK_MS, (date - lastModified) / 10) };
  }
  return { store: true, freshForMs: DEFAULT_FRESH_MS };
}
