/**
 * The renderer's own scheme: the built renderer is served as `app://blotter/…` instead of file://.
 * A file:// page shares its origin with every local file and gets file-protocol privileges; an
 * app:// page has one origin of its own, and can read only the renderer's folder.
 *
 * - `registerAppScheme` (before the app is ready) makes `app` a standard, secure scheme with fetch
 *   support, so 'self' in the CSP, ES modules and workers behave as on https.
 * - `handleAppProtocol` (once ready) answers `app://blotter/PATH` with the file under the renderer
 *   folder: `/` is index.html; other hosts, `..`, encoded separators, NUL and symlinks that lead
 *   out of the folder are refused; folders are not listed. Every answer carries the CSP.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentTypeOf, fileOf } from '../web/staticFiles';

export const APP_SCHEME = 'app';
export const APP_HOST = 'blotter';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** The part of Electron's `protocol` this module uses; tests pass a fake. */
export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void;
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void;
}

/** The part of Electron's `net` this module uses (net.fetch reads file:// URLs, inside asar too). */
export interface NetLike {
  fetch(url: string): Promise<Response>;
}

export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
  // Nothing that widens what the page may do: no CSP bypass, no service workers.
  bypassCSP: false,
  allowServiceWorkers: false,
  corsEnabled: false,
  stream: false,
};

export function registerAppScheme(protocol: Pick<ProtocolLike, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

/**
 * The file an app:// URL names under `realRoot` (already a real path), or the HTTP status that
 * refuses it: 400 unreadable, 403 outside the folder (or another host), 404 missing or a folder.
 */
export async function resolveAppFile(
  realRoot: string,
  url: string,
): Promise<{ file: string } | { status: number }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 400 };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { status: 403 };
  // The raw path: URL parsing has already folded plain `..` segments, so check the written form too.
  const raw = url.slice(APP_ORIGIN.length).split(/[?#]/)[0] || '/';
  if (/(^|\/)\.\.?(\/|$)/.test(raw) || /%2e%2e|%2f|%5c|\\/i.test(raw)) return { status: 403 };
  const file = fileOf(realRoot, parsed.pathname);
  if (file === 'bad') return { status: 400 };
  if (file === 'outside') return { status: 403 };
  try {
    const real = await realpath(file);
    if (!real.startsWith(realRoot + path.sep)) return { status: 403 };
    if (!(await stat(real)).isFile()) return { status: 404 };
    return { file: real };
  } catch {
    return { status: 404 };
  }
}

export function handleAppProtocol(
  protocol: Pick<ProtocolLike, 'handle'>,
  deps: { rendererDir: string; net: NetLike; csp: () => string },
): void {
  let realRoot: Promise<string> | null = null;
  protocol.handle(APP_SCHEME, async (request) => {
    realRoot ??= realpath(deps.rendererDir);
    const headers = {
      'Content-Security-Policy': deps.csp(),
      'X-Content-Type-Options': 'nosniff',
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed.', { status: 405, headers });
    }
    const found = await resolveAppFile(await realRoot, request.url);
    if ('status' in found) return new Response('Not available.', { status: found.status, headers });
    const answer = await deps.net.fetch(pathToFileURL(found.file).href);
    return new Response(answer.body, {
      status: 200,
      headers: { ...headers, 'Content-Type': contentTypeOf(found.file) },
    });
  });
}
