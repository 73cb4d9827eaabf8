/**
 * Failures of this computer, not of the service: a full disk, a data file another Blotter holds,
 * a damaged data file, a disk error, a native module missing or built for another runtime. Each
 * gets its own error code and words that say where and what to do — a server is blamed only for
 * what the server sent. SQLite errors are classified here, by their code, in one place; callers
 * (the dispatcher, the sync runner, the CLI, openDatabase) ask `localFailureOf` before anything else.
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../../src-shared/contract';
import { EngineError } from '../errors';

export type LocalFailureCode = Extract<
  ErrorCode,
  'disk_full' | 'database_locked' | 'database_corrupt' | 'disk_error' | 'native_module'
>;

/** An EngineError for a local failure: no retry fixes it, so a sync stops at once. */
export class LocalFailure extends EngineError {
  readonly fatal = true;
  readonly retryable = false;
  constructor(
    override readonly code: LocalFailureCode,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(code, message);
    this.name = 'LocalFailure';
  }
}

/** How long a writer waits for another's write lock before giving up (PRAGMA busy_timeout). */
export const BUSY_TIMEOUT_MS = 15_000;

/**
 * Data files a long write on a second connection (an import's merge, writeTurns.ts) is writing now:
 * meanwhile the engine's connection waits 0 ms for the write lock, and a write that met it is told
 * so — it was refused at once, nothing changed, and it can be tried again when the import is saved.
 */
const longWrites = new Map<string, number>();

/** Marks (`on`) or unmarks a long write on `dbFile`; calls nest. */
export function markLongWrite(dbFile: string, on: boolean): void {
  const n = (longWrites.get(dbFile) ?? 0) + (on ? 1 : -1);
  if (n > 0) longWrites.set(dbFile, n);
  else longWrites.delete(dbFile);
}

type Coded = { code?: unknown; message?: unknown; cause?: unknown };

const NATIVE =
  /NODE_MODULE_VERSION|was compiled against a different Node\.js version|Could not locate the bindings file|invalid ELF header|wrong ELF class|better_sqlite3\.node|Module did not self-register|undefined symbol/i;

/** The local failure `error` (or one of its causes) is, in plain words; null when it is none. */
export function localFailureOf(error: unknown, dbFile?: string): LocalFailure | null {
  if (error instanceof LocalFailure) return error;
  for (let e = error as Coded | undefined, depth = 0; e && depth < 5; e = e.cause as Coded, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : String(e);
    const found = classify(code, message, dbFile, error);
    if (found) return found;
  }
  return null;
}

function classify(
  code: string,
  message: string,
  dbFile: string | undefined,
  error: unknown,
): LocalFailure | null {
  const file = dbFile ?? 'the data file';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    const folder = dbFile ? path.dirname(dbFile) : null;
    const free = folder ? freeSpace(folder) : null;
    return new LocalFailure(
      'disk_full',
      `The disk is full: Blotter could not write to ${folder ?? 'its data folder'}` +
        `${free === null ? '' : ` (${free} free there)`}. Free some space on that disk, or move the ` +
        `data folder to a disk with room, then try again. What was already saved is intact.`,
      error,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    if (dbFile && longWrites.has(dbFile))
      return new LocalFailure(
        'database_locked',
        `The data file ${file} is being written by an import right now; this change was not made. ` +
          `Try again in a moment, once the import is saved.`,
        error,
      );
    return new LocalFailure(
      'database_locked',
      `The data file ${file} is in use: another Blotter (the app, or a command-line sync) held it ` +
        `for more than ${BUSY_TIMEOUT_MS / 1000} s. Try again in a moment; if it keeps happening, ` +
        `close the other Blotter first.`,
      error,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new LocalFailure(
      'database_corrupt',
      `The data file ${file} is damaged (${message}). Blotter will not write to it. Close Blotter, ` +
        `keep a copy of the file, and restore it from a backup — or move it aside and sync again to ` +
        `rebuild what the API still serves (older and imported incidents exist only in the old file).`,
      error,
    );
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return new LocalFailure(
      'disk_error',
      `The disk reported an error while Blotter used ${file} (${code}). Check the disk, and that ` +
        `the data folder is on a local drive that is still attached.`,
      error,
    );
  }
  if (code === 'ERR_DLOPEN_FAILED' || NATIVE.test(message)) {
    return new LocalFailure(
      'native_module',
      `Blotter's SQLite module (better-sqlite3) is missing or was built for another version of ` +
        `Node.js or Electron (${message.split('\n')[0]?.slice(0, 200)}). Rebuild it: run ` +
        `"npm rebuild better-sqlite3" in Blotter's folder, or reinstall Blotter.`,
      error,
    );
  }
  return null;
}

/** Free space on the disk holding `folder`, for people ("1.2 GB"); null when it cannot be read. */
export function freeSpace(folder: string): string | null {
  try {
    const s = statfsSync(folder);
    return formatBytes(Number(s.bavail) * Number(s.bsize));
  } catch {
    return null;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
