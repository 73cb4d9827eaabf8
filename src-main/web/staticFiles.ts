/**
 * Serves the built renderer (out/renderer) read-only: `/` is index.html, every other path a file
 * under the folder. Paths that leave the folder — `..`, encoded slashes, symlinks pointing out —
 * are refused; folders are not listed.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
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

export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  pathname: string,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendText(res, 405, 'Method not allowed.');
  }
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
