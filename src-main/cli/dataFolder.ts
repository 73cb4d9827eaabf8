/** Opening the data folder named by --data-dir (or BLOTTER_DATA_DIR, or the app's default) for a command. */
import { homedir } from 'node:os';
import { dbFileOf, logFileOf, resolveDataDir } from '../engine/dataDir';
import { configureLogging } from '../engine/log';
import { openDatabase, type Db } from '../engine/store/database';
import type { Io } from './io';

let opened: string | undefined;

/** The data file this process last opened, to name it in a local failure (disk full, damaged). */
export const openedDbFile = (): string | undefined => opened;

export function openDataFolder(io: Io, dataDirFlag: string | undefined): { dataDir: string; db: Db } {
  const dataDir = resolveDataDir({
    argv: dataDirFlag === undefined ? [] : ['--data-dir', dataDirFlag],
    env: io.env,
    platform: process.platform,
    homedir: homedir(),
  });
  configureLogging({
    file: logFileOf(dataDir),
    level: io.env.BLOTTER_LOG_LEVEL === 'debug' ? 'debug' : 'warn',
    // The log goes to the file; stderr is for the command's own lines, each said once.
    stderr: io.env.BLOTTER_LOG_LEVEL === 'debug',
  });
  opened = dbFileOf(dataDir);
  return { dataDir, db: openDatabase(opened) };
}
