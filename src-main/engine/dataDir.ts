/**
 * Where Blotter keeps its files. `--data-dir DIR` (or `--data-dir=DIR`) beats the BLOTTER_DATA_DIR
 * environment variable, which beats the platform's app-data folder — the same folder Electron's
 * `app.getPath('userData')` gives for the product name Blotter. Used by every host and the CLI, so
 * tests, portable installs and several offices on one machine each get their own folder.
 *
 * The folder holds the archive, the logs and exports: on POSIX it must be the user's alone. A
 * folder Blotter creates is 0700; an existing one that other users can write to (group- or
 * world-writable) or that belongs to another user is refused with a message saying how to fix it
 * — never chmod-ed behind the user's back. Every host sets `process.umask(0o077)` before anything
 * is written, so the files inside are 0600 and the folders 0700 (worker threads share it).
 */
import { accessSync, constants, mkdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

export const APP_FOLDER = 'Blotter';
export const DB_FILE = 'blotter.sqlite';
export const DATA_DIR_FLAG = '--data-dir';
export const DATA_DIR_ENV = 'BLOTTER_DATA_DIR';

export type DataDirSources = {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homedir: string;
  /** Base for a relative --data-dir or BLOTTER_DATA_DIR; process.cwd() when absent. */
  cwd?: string;
};

export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

export const dbFileOf = (dataDir: string): string => path.join(dataDir, DB_FILE);
export const logDirOf = (dataDir: string): string => path.join(dataDir, 'logs');
export const logFileOf = (dataDir: string): string => path.join(logDirOf(dataDir), 'blotter.log');

/** The data folder these sources name, created (mode 0700) when missing and checked to be writable. */
export function resolveDataDir(sources: DataDirSources): string {
  const dir = locateDataDir(sources);
  ensureDir(dir);
  return dir;
}

/** The data folder these sources name, without touching the disk. */
export function locateDataDir({ argv, env, platform, homedir, cwd }: DataDirSources): string {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const absolute = (value: string): string =>
    paths.resolve(cwd ?? process.cwd(), expandHome(value.trim(), homedir, paths));

  const fromFlag = dataDirFlag(argv);
  if (fromFlag !== undefined) return absolute(nonEmpty(fromFlag, `${DATA_DIR_FLAG} needs a folder path`));
  const fromEnv = env[DATA_DIR_ENV];
  if (fromEnv !== undefined) {
    return absolute(nonEmpty(fromEnv, `${DATA_DIR_ENV} is set but empty; give it a folder path or unset it`));
  }
  return defaultDataDir(platform, env, homedir);
}

/** The platform's app-data folder for Blotter. */
export function defaultDataDir(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  homedir: string,
): string {
  if (platform === 'win32') {
    return path.win32.join(env.APPDATA || path.win32.join(homedir, 'AppData', 'Roaming'), APP_FOLDER);
  }
  if (platform === 'darwin') return path.posix.join(homedir, 'Library', 'Application Support', APP_FOLDER);
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homedir, '.config');
  return path.posix.join(base, APP_FOLDER);
}

/** The value of the last `--data-dir DIR` / `--data-dir=DIR` in argv; '' when the flag has no value. */
export function dataDirFlag(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg.startsWith(`${DATA_DIR_FLAG}=`)) found = arg.slice(DATA_DIR_FLAG.length + 1);
    else if (arg === DATA_DIR_FLAG) {
      const next = argv[i + 1];
      found = next === undefined || next.startsWith('--') ? '' : next;
      if (found) i++;
    }
  }
  return found;
}

/** The umask every host sets first thing: files 0600, folders 0700. */
export const PRIVATE_UMASK = 0o077;

/**
 * Creates `dir` (mode 0700) when missing; a clear DataDirError when it is a file, not writable,
 * writable by other users or owned by another user. `uid` is the user's (tests pass another).
 */
export function ensureDir(dir: string, uid: number | undefined = process.getuid?.()): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new DataDirError(`The data folder ${dir} is a file (or lies under one), not a folder. ${CHOOSE}`);
    }
    throw new DataDirError(`Cannot create the data folder ${dir}: ${(error as Error).message}. ${CHOOSE}`);
  }
  const info = statSync(dir);
  if (!info.isDirectory()) {
    throw new DataDirError(`The data folder ${dir} is a file, not a folder. ${CHOOSE}`);
  }
  checkPrivate(dir, info, uid);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new DataDirError(`The data folder ${dir} is not writable. ${CHOOSE}`);
  }
}

const CHOOSE = `Choose another folder with ${DATA_DIR_FLAG} DIR or ${DATA_DIR_ENV}.`;

/** POSIX only: refuses a folder other users can change, or one that is not the user's. */
export function checkPrivate(dir: string, info: Pick<Stats, 'mode' | 'uid'>, uid: number | undefined): void {
  if (process.platform === 'win32' || uid === undefined) return;
  if (info.uid !== uid) {
    throw new DataDirError(
      `The data folder ${dir} belongs to another user (uid ${info.uid}, you are ${uid}). Blotter keeps its ` +
        `archive, logs and exports only in a folder of your own. ${CHOOSE}`,
    );
  }
  const mode = info.mode & 0o777;
  if (mode & 0o022) {
    throw new DataDirError(
      `The data folder ${dir} can be changed by other users (mode ${mode.toString(8).padStart(4, '0')}: ` +
        `${mode & 0o002 ? 'world' : 'group'}-writable). Blotter does not change a folder's permissions itself: ` +
        `make it private with \`chmod 700 "${dir}"\`, or ${CHOOSE.charAt(0).toLowerCase()}${CHOOSE.slice(1)}`,
    );
  }
}

function nonEmpty(value: string, message: string): string {
  if (value.trim() === '') throw new DataDirError(`${message}.`);
  return value;
}

function expandHome(value: string, homedir: string, paths: typeof path.posix): string {
  if (value === '~') return homedir;
  if (value.startsWith('~/') || value.startsWith('~\\')) return paths.join(homedir, value.slice(2));
  return value;
}
