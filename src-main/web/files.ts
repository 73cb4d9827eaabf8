/**
 * The web host's file transfers, both behind the session cookie like every /api/ path:
 *
 * - GET /api/download/<name>: an export the engine wrote into the current data folder's exports/,
 *   as an attachment. Only plain names of finished files are served (no path, no .part file); the
 *   page learns names from the engine's exportProgress events, never makes them up. The file's
 *   real path (symlinks resolved) must lie inside the real exports/ folder, as for static files: a
 *   link in exports/ pointing elsewhere (the database, a key file) is refused.
 * - POST /api/upload: a file to import, as the raw body (application/octet-stream, which no HTML
 *   form can send), streamed into the data folder's imports/ under a random id, at most
 *   MAX_UPLOAD_BYTES. The answer is a JSON Result with the upload id for previewImport.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { UPLOAD_NAME_HEADER } from '../../src-shared/webProtocol';
import {
  createLogger,
  EXPORT_NAME,
  exportsDirOf,
  importsDirOf,
  uploadFileOf,
  type EngineHandle,
} from '../engine/index';
import { sendError, sendJson } from './respond';
import { newToken } from './session';

export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

const log = createLogger('web-files');

const TYPES: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.geojson': 'application/geo+json',
  '.gpkg': 'application/geopackage+sqlite3',
  '.zip': 'application/zip',
  '.kml': 'application/vnd.google-earth.kml+xml',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
};

async function dataDirOf(engine: Pick<EngineHandle, 'call'>): Promise<string> {
  const info = await engine.call('getAppInfo', {});
  if (!info.ok) throw new Error(info.error.message);
  return info.value.dataDir;
}

export async function serveDownload(
  req: IncomingMessage,
  res: ServerResponse,
  engine: Pick<EngineHandle, 'call'>,
  rawName: string,
): Promise<void> {
  if (req.method !== 'GET') {
    return sendError(
      res,
      405,
      { code: 'bad_input', message: 'Downloads are GET requests.' },
      { Allow: 'GET' },
    );
  }
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    name = '';
  }
  const type = TYPES[path.extname(name).toLowerCase()];
  if (!EXPORT_NAME.test(name) || !type) {
    return sendError(res, 404, { code: 'not_found', message: 'There is no such export.' });
  }
  const file = await realFileIn(exportsDirOf(await dataDirOf(engine)), name);
  if (file === 'outside') {
    log.warn('refused a download that leads out of exports/', { name });
    return sendError(res, 403, { code: 'not_found', message: 'That file is not an export.' });
  }
  const info = file ? await stat(file).catch(() => null) : null;
  if (!file || !info?.isFile())
    return sendError(res, 404, { code: 'not_found', message: 'That export is no longer there.' });
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': info.size,
    'Content-Disposition': `attachment; filename="${name}"`,
  });
  await pipeline(createReadStream(file), res).catch((error: unknown) => {
    log.warn('a download stopped early', { error });
    res.destroy();
  });
}

/** `name` in `folder` with symlinks resolved; 'outside' when that leaves the folder; null when missing. */
export async function realFileIn(folder: string, name: string): Promise<string | 'outside' | null> {
  try {
    const root = await realpath(folder);
    const real = await realpath(path.join(root, name));
    return real.startsWith(root + path.sep) ? real : 'outside';
  } catch {
    return null;
  }
}

export async function receiveUpload(
  req: IncomingMessage,
  res: ServerResponse,
  engine: Pick<EngineHandle, 'call'>,
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<void> {
  if (req.method !== 'POST') {
    return sendError(
      res,
      405,
      { code: 'bad_input', message: 'Uploads are POST requests.' },
      { Allow: 'POST' },
    );
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/octet-stream') {
    return sendError(res, 415, { code: 'bad_input', message: 'Send the file as application/octet-stream.' });
  }
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
    req.resume();
    res.setHeader('Connection', 'close');
    return sendError(res, 413, {
      code: 'bad_input',
      message: `The file is larger than ${maxBytes / 1024 / 1024} MB.`,
    });
  }
  const dataDir = await dataDirOf(engine);
  await mkdir(importsDirOf(dataDir), { recursive: true, mode: 0o700 });
  const uploadId = newToken()
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, 32);
  const file = uploadFileOf(dataDir, uploadId);
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(new Error('too large'));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, limit, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    if (bytes > maxBytes) {
      res.setHeader('Connection', 'close');
      return sendError(res, 413, {
        code: 'bad_input',
        message: `The file is larger than ${maxBytes / 1024 / 1024} MB.`,
      });
    }
    log.warn('an upload failed', { error });
    return sendError(res, 400, { code: 'bad_input', message: 'The upload did not complete. Try again.' });
  }
  let name = 'upload';
  try {
    name =
      decodeURIComponent(String(req.headers[UPLOAD_NAME_HEADER.toLowerCase()] ?? 'upload')).slice(0, 255) ||
      'upload';
  } catch {
    // keep the default
  }
  sendJson(res, 200, { ok: true, value: { uploadId, name, bytes } });
}
