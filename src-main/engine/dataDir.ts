/**
 * Where Blotter keeps its files. `--data-dir DIR` (or `--data-dir=DIR`) beats the BLOTTER_DATA_DIR
 * environment variable, which beats the platform's app-data folder — the same folder Electron's
 * `app.getPath('userData')` gives for the product name Blotter. Used by every host and the CLI, so
 * tests, portable installs and several offices on one machine each get their own folder.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
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

/** Creates `dir` (mode 0700) when missing; a clear DataDirError when it is a file or not writable. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new DataDirError(`The data folder ${dir} is a file (or lies under one), not a folder. ${CHOOSE}`);
    }
    throw new DataDirError(`Cannot create the data folder ${dir}: ${(error as Error).message}. ${CHOOSE}`);
  }
  if (!statSync(dir).isDirectory()) {
    throw new DataDirError(`The data folder ${dir} is a file, not a folder. ${CHOOSE}`);
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new DataDirError(`The data folder ${dir} is not writable. ${CHOOSE}`);
  }
}

const CHOOSE = `Choose another folder with ${DATA_DIR_FLAG} DIR or ${DATA_DIR_ENV}.`;

function nonEmpty(value: string, message: string): string {
  if (value.trim() === '') throw new DataDirError(`${message}.`);
  return value;
}

function expandHome(value: string, homedir: string, paths: typeof path.posix): string {
  if (value === '~') return homedir;
  if (value.startsWith('~/') || value.startsWith('~\\')) return paths.join(homedir, value.slice(2));
  return value;
}
