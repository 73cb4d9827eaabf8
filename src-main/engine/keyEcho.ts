/**
 * A hostile or broken API server could echo the API key back inside an answer's text — an
 * address, a type, a description, any string — and Blotter would keep it in its database, the
 * office archive and every export. So every answer either surface reads passes through `scrubKey`
 * in their one request-and-read step (api/jsonGet.ts: the live search and detail, v1's pages, score
 * and trends), before its schema reads it: each string holding the key — as sent or URL-encoded;
 * the JSON parse has already undone \u escapes — has it replaced with "[redacted]", object keys
 * too, and the number of strings is logged with the request's redacted URL, never the key.
 */
import { createLogger } from './log';

export const KEY_ECHO_MARK = '[redacted]';

const log = createLogger('api');

/** `value` with every occurrence of `key` in its strings replaced, and how many strings held one. */
export function scrubKey<T>(value: T, key: string): { value: T; strings: number } {
  const variants = [...new Set([key, encodeURIComponent(key)])]
    .filter((v) => v.length > 0)
    .sort((a, b) => b.length - a.length);
  let strings = 0;
  const text = (s: string): string => {
    if (!variants.some((v) => s.includes(v))) return s;
    strings++;
    let out = s;
    for (const v of variants) out = out.split(v).join(KEY_ECHO_MARK);
    return out;
  };
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return text(x);
    if (Array.isArray(x)) {
      let changed = false;
      const out = x.map((item) => {
        const next = walk(item);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : x;
    }
    if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(x)) {
        const name = text(k);
        const next = walk(v);
        if (name !== k || next !== v) changed = true;
        out[name] = next;
      }
      return changed ? out : x;
    }
    return x;
  };
  return { value: walk(value) as T, strings };
}

/** Says (never the key) that an answer held it: how many strings, and the request's redacted URL. */
export function logKeyEcho(strings: number, url: string): void {
  log.warn('the service echoed the API key in its answer; replaced before anything kept it', {
    marker: KEY_ECHO_MARK,
    strings,
    url,
  });
}
