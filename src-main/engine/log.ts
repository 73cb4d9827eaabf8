/**
 * Named loggers (`createLogger('sync')`) with levels, writing to stderr and to a size-capped,
 * rotated file (`<dataDir>/logs/blotter.log`). Every line passes through `redact`, so an API key
 * cannot reach a log whatever a caller passes. Configuration is per thread: the engine worker
 * configures its own (worker.ts); a host configures the main thread's.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { redact } from './redact';

export { redact, registerSecret, unregisterSecret, REDACTED } from './redact';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly name: string;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type LogConfig = {
  level: LogLevel;
  stderr: boolean;
  /** The log file; null for none. */
  file: string | null;
  /** Rotate when the file would grow past this many bytes… */
  maxBytes: number;
  /** …keeping this many old files (blotter.log.1 is the newest). */
  keep: number;
};

const envLevel = process.env.BLOTTER_LOG_LEVEL;
const config: LogConfig = {
  level: isLevel(envLevel) ? envLevel : 'info',
  stderr: true,
  file: null,
  maxBytes: 5 * 1024 * 1024,
  keep: 3,
};
let sink: { fd: number; size: number } | null = null;

export function configureLogging(patch: Partial<LogConfig>): void {
  if (patch.file !== undefined && patch.file !== config.file) closeFile();
  Object.assign(config, patch);
}

export function createLogger(name: string): Logger {
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void =>
      write(level, name, message, fields);
  return { name, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** One log line, redacted, ending in a newline. Exported for tests. */
export function formatLine(level: LogLevel, name: string, message: string, fields?: LogFields): string {
  let line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${name}] ${message}`;
  let stack = '';
  if (fields && Object.keys(fields).length > 0) {
    line += ' ' + JSON.stringify(fields, (_key, value: unknown) => plain(value));
    for (const value of Object.values(fields))
      if (value instanceof Error && value.stack) stack += value.stack;
  }
  if (stack) line += '\n  ' + stack.split('\n').slice(1).join('\n  ').trim();
  return redact(line) + '\n';
}

function write(level: LogLevel, name: string, message: string, fields?: LogFields): void {
  if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(config.level)) return;
  const line = formatLine(level, name, message, fields);
  if (config.stderr) process.stderr.write(line);
  if (config.file) writeFile(config.file, line);
}

function writeFile(file: string, line: string): void {
  try {
    const bytes = Buffer.byteLength(line);
    if (sink && sink.size > 0 && sink.size + bytes > config.maxBytes) {
      closeFile();
      rotate(file, config.keep);
    }
    if (!sink) {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const fd = openSync(file, 'a', 0o600);
      sink = { fd, size: fstatSync(fd).size };
    }
    writeSync(sink.fd, line);
    sink.size += bytes;
  } catch (error) {
    config.file = null;
    closeFile();
    process.stderr.write(redact(`Logging to ${file} stopped: ${(error as Error).message}\n`));
  }
}

function rotate(file: string, keep: number): void {
  if (keep < 1) return rmSync(file, { force: true });
  rmSync(`${file}.${keep}`, { force: true });
  for (let n = keep - 1; n >= 1; n--) renameIfPresent(`${file}.${n}`, `${file}.${n + 1}`);
  renameIfPresent(file, `${file}.1`);
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function closeFile(): void {
  if (!sink) return;
  try {
    closeSync(sink.fd);
  } finally {
    sink = null;
  }
}

function plain(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function isLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}
