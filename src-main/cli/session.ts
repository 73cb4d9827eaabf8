/**
 * A command's engine: the data folder named by --data-dir (or BLOTTER_DATA_DIR, or the app's
 * default), its log file, and an in-process engine for the CLI host. Commands use contract calls
 * only (`call` answers the value or throws CallFailure); nothing here opens the database.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import type { CallInput, CallName, CallOutput, EngineEvent } from '../../src-shared/contract';
import {
  configureLogging,
  createInProcessEngine,
  dbFileOf,
  logFileOf,
  resolveDataDir,
  type EngineHandle,
} from '../engine/index';
import { CallFailure } from './failure';
import type { Io } from './io';
import { cliSecretStore } from './key';
import { archiveReadingPrinter } from './progressLine';

export type Session = {
  dataDir: string;
  /** The engine itself, for a host the command starts around it (`report` prints through the web host's). */
  engine: EngineHandle;
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  onEvent(listener: (event: EngineEvent) => void): () => void;
  close(): Promise<void>;
};

let opened: string | undefined;

/** The data file this process opened, to name it in a local failure (disk full, damaged). */
export const openedDbFile = (): string | undefined => opened;

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export async function openSession(io: Io, dataDirFlag: string | undefined): Promise<Session> {
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
  const engine: EngineHandle = await createInProcessEngine({
    dataDir,
    host: 'cli',
    version: VERSION,
    secrets: cliSecretStore(io.env),
    logFile: null,
  });
  // Every answer of the CLI is computed from the file as it stands (engine/services.ts): a command
  // after a restore or another process's writes waits for the archive's re-read, and says so.
  const reading = archiveReadingPrinter((line) => io.err(line));
  const unsubscribe = engine.onEvent((e) => {
    if (e.type === 'archiveReading') reading(e);
  });
  return {
    dataDir,
    engine,
    async call(name, input) {
      const result = await engine.call(name, input);
      if (!result.ok) throw CallFailure.of(result.error);
      return result.value;
    },
    onEvent: (listener) => engine.onEvent(listener),
    close: () => engine.close().finally(unsubscribe),
  };
}

/** Runs `work` with a session, closing the engine afterwards whatever happens. */
export async function withSession<T>(
  io: Io,
  dataDirFlag: string | undefined,
  work: (s: Session) => Promise<T>,
): Promise<T> {
  const session = await openSession(io, dataDirFlag);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}
