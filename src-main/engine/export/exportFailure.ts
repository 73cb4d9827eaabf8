/**
 * An export that failed on this computer, in words that say so: where the file was going and what
 * stopped it (a full disk, a folder Blotter may not write in, a disk error) — not a bare errno or
 * SQLite message, and never blamed on the service. The job has already removed what it wrote, so
 * the words say nothing was left. Anything else is not a local failure (null).
 */
import path from 'node:path';
import { EngineError } from '../errors';
import { freeSpace, localFailureOf } from '../store/localFailure';

type Coded = { code?: unknown; message?: unknown; cause?: unknown };

const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const REFUSED = new Set(['EROFS', 'EACCES', 'EPERM', 'SQLITE_READONLY', 'SQLITE_CANTOPEN']);

/** The local failure of an export to `file`, or null when the error is not one. */
export function exportFailureOf(error: unknown, file: string): EngineError | null {
  const folder = path.dirname(file);
  for (let e = error as Coded | undefined, depth = 0; e && depth < 5; e = e.cause as Coded, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (FULL.has(code)) {
      const free = freeSpace(folder);
      return new EngineError(
        'disk_full',
        `The disk is full: the export could not be written to ${folder}` +
          `${free === null ? '' : ` (${free} free there)`} on this computer. Nothing was left there; ` +
          `free some space or choose a folder on another disk, then export again.`,
      );
    }
    if (REFUSED.has(code)) {
      const why = code === 'EROFS' || code === 'SQLITE_READONLY' ? 'it is read-only' : 'permission denied';
      return new EngineError(
        'disk_error',
        `Blotter cannot write in ${folder} on this computer (${why}): the export was not written. ` +
          `Choose another folder, then export again.`,
      );
    }
  }
  return localFailureOf(error, file);
}
