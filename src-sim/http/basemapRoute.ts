/**
 * `GET /basemap/<name>.pmtiles`: the demo profile's vector basemap, served like a static file host
 * serves a PMTiles archive — byte ranges (`Range: bytes=a-b`, `a-`, `-n`) answered 206 with
 * Content-Range, a strong ETag, `Accept-Ranges: bytes`, 416 past the end. Public: no key, outside
 * the API pipeline (a basemap source is not the API). `demo.pmtiles` is the demo city's.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const BASEMAP_PREFIX = '/basemap/';

/** The archive a name stands for (built lazily, kept), or null when there is none. */
export type BasemapProvider = (name: string) => Uint8Array | null;

const etags = new WeakMap<Uint8Array, string>();
function etagOf(bytes: Uint8Array): string {
  let tag = etags.get(bytes);
  if (!tag) {
    tag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
    etags.set(bytes, tag);
  }
  return tag;
}

/** Answers the request when it is for a basemap; false otherwise (the API pipeline goes on). */
export function serveBasemap(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  provide: BasemapProvider,
): boolean {
  const m = /^\/basemap\/([a-z0-9-]+)\.pmtiles$/.exec(path);
  if (!path.startsWith(BASEMAP_PREFIX)) return false;
  const bytes = m ? provide(m[1] as string) : null;
  if (!bytes) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such basemap');
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return true;
  }
  const common = {
    'Accept-Ranges': 'bytes',
    ETag: etagOf(bytes),
    'Content-Type': 'application/octet-stream',
  };
  const size = bytes.length;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (!range || (range[1] === '' && range[2] === '')) {
    res.writeHead(200, { ...common, 'Content-Length': size });
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, size));
    return true;
  }
  let start: number;
  let end: number;
  if (range[1] === '') {
    start = Math.max(0, size - Number(range[2]));
    end = size - 1;
  } else {
    start = Number(range[1]);
    end = range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
  }
  if (start >= size || start > end) {
    res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` }).end();
    return true;
  }
  res.writeHead(206, {
    ...common,
    'Content-Range': `bytes ${start}-${end}/${size}`,
    'Content-Length': end - start + 1,
  });
  res.end(
    req.method === 'HEAD' ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start + 1),
  );
  return true;
}
