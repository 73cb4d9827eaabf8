/**
 * Serves the built renderer (out/renderer) read-only: `/` is index.html, every other path a file
 * under the folder. Paths that leave the folder — `..`, encoded slashes, symlinks pointing out —
 * are refused; folders are not listed.
 *
 * `loadStaticFiles` reads the folder's files into memory once, as the host starts (asynchronously,
 * before its URL is printed), so a launch's requests are answered with no file opened on the
 * host's event loop (issue 13: an `open` under a loaded machine held it ~90 ms). A file not
 * loaded then (added later, or larger than the cap) is still served from disk with the same checks.
 */
import { createReadStream } from 'node:fs';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { sendText } from './respond';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.geojson': 'application/geo+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.pbf': 'application/x-protobuf',
};

export const contentTypeOf = (file: string): string =>
  TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/**
 * The file under `root` that `pathname` (still percent-encoded) names, or a refusal: 'bad' for an
 * unreadable path, 'outside' for one that leaves the folder.
 */
export function fileOf(root: string, pathname: string): string | 'bad' | 'outside' {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 'bad';
  }
  if (decoded.includes('\0') || !decoded.startsWith('/')) return 'bad';
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1);
  const file = path.resolve(root, relative);
  return file.startsWith(root + path.sep) ? file : 'outside';
}

/** Files larger than this stay on disk (streamed when asked). */
const MAX_LOADED_BYTES = 8 * 1024 * 1024;

export interface StaticFiles {
  /** Answers a GET or HEAD of `pathname` (still percent-encoded). */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void>;
  /** How many files are held in memory. */
  readonly loaded: number;
}

/**
 * The renderer folder's regular files in memory, keyed by their real path: only those whose real
 * path (symlinks resolved) stays inside the real folder, so a link out is never loaded.
 */
export async function loadStaticFiles(root: string): Promise<StaticFiles> {
  const realRoot = await realpath(root);
  const files = new Map<string, Buffer>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(file);
      else if (entry.isFile()) {
        const info = await stat(file);
        if (info.size <= MAX_LOADED_BYTES) files.set(file, await readFile(file));
      }
    }
  };
  await walk(realRoot);
  return {
    loaded: files.size,
    serve: async (req, res, pathname) => {
      if (!allowedMethod(req, res)) return;
      const file = fileOf(realRoot, pathname); // 'bad' and 'outside' are never keys
      const body = files.get(file);
      if (!body) return serveStatic(req, res, realRoot, pathname);
      res.writeHead(200, { 'Content-Type': contentTypeOf(file), 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}

function allowedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  res.setHeader('Allow', 'GET, HEAD');
  sendText(res, 405, 'Method not allowed.');
  return false;
}

/** Serves one file from disk (realpath, stat, a read stream): what `loadStaticFiles` did not hold. */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  pathname: string,
): Promise<void> {
  if (!allowedMethod(req, res)) return;
  const realRoot = await realpath(root);
  const file = fileOf(realRoot, pathname);
  if (file === 'bad') return sendText(res, 400, 'Bad path.');
  if (file === 'outside') return sendText(res, 403, 'Forbidden.');
  let real: string;
  let size: number;
  try {
    real = await realpath(file);
    const info = await stat(real);
    if (!info.isFile()) return sendText(res, 404, 'Not found.');
    size = info.size;
  } catch {
    return sendText(res, 404, 'Not found.');
  }
  if (!real.startsWith(realRoot + path.sep)) return sendText(res, 403, 'Forbidden.');

  res.writeHead(200, { 'Content-Type': contentTypeOf(real), 'Content-Length': size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(real)
    .on('error', () => res.destroy())
    .pipe(res);
}
