/**
 * Where an import's bytes are: an upload the web host streamed into the data folder's imports/
 * (named by a random id: the page never names a path), or a file the Electron open dialog chose.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ImportSource } from '../../../src-shared/exports';
import { UploadId } from '../../../src-shared/exports';
import { EngineError } from '../errors';

export const importsDirOf = (dataDir: string): string => path.join(dataDir, 'imports');

/** The file of an upload id (the id is checked: letters, digits, - and _ only). */
export function uploadFileOf(dataDir: string, uploadId: string): string {
  const id = UploadId.parse(uploadId);
  return path.join(importsDirOf(dataDir), `${id}.upload`);
}

export type OpenedSource = { file: string; name: string; bytes: number; uploaded: boolean };

export function openSource(dataDir: string, source: ImportSource | undefined): OpenedSource {
  if (!source) throw new EngineError('bad_input', 'Choose a file to import.');
  const uploaded = 'uploadId' in source;
  const file = uploaded ? uploadFileOf(dataDir, source.uploadId) : source.path;
  if (!path.isAbsolute(file))
    throw new EngineError('bad_input', 'The file to import must be given by its full path.');
  let bytes: number;
  try {
    const info = statSync(file);
    if (!info.isFile()) throw new Error('not a file');
    bytes = info.size;
  } catch {
    throw new EngineError(
      'not_found',
      uploaded ? 'The uploaded file is gone. Upload it again.' : `Cannot read ${file}.`,
    );
  }
  const name = uploaded ? (source.name ?? 'upload') : path.basename(file);
  return { file, name: name.slice(0, 255), bytes, uploaded };
}

/** Uploads older than this that no import ran or discarded (the page was closed mid-way) are deleted. */
export const ABANDONED_UPLOAD_MS = 24 * 3_600_000;

/** Deletes the uploads in `importsDir` last written over ABANDONED_UPLOAD_MS ago, but `keep`. */
export function removeAbandonedUploads(importsDir: string, keep: string | null, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(importsDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.upload')) continue;
    const file = path.join(importsDir, name);
    if (file === keep) continue;
    try {
      if (now - statSync(file).mtimeMs > ABANDONED_UPLOAD_MS) rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}
