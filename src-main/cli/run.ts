/**
 * The `blotter` command line: sync, export and status over the same engine modules as the app,
 * in-process. One line on stderr for every failure, with exit codes per README.md.
 */
import { ApiError } from '../engine/api/apiError';
import { DataDirError } from '../engine/dataDir';
import { EngineError } from '../engine/errors';
import { DatabaseOpenError, DatabaseTooNewError, MigrationError } from '../engine/store/database';
import { localFailureOf } from '../engine/store/localFailure';
import { parseArgs, UsageError } from './args';
import { openedDbFile } from './dataFolder';
import { EXPORT_FLAGS, exportCommand } from './exportCommand';
import { EXIT, type Io } from './io';
import { NoKeyError } from './key';
import { STATUS_FLAGS, statusCommand } from './statusCommand';
import { SYNC_FLAGS, syncCommand } from './syncCommand';

export const USAGE = `Usage:
  blotter sync   --data-dir DIR --base-url URL --plan developer|pro-monthly|pro-annual|enterprise
                 [--rate PER_MINUTE] [--window-days N] --area "LAT,LON,RADIUS_MI" [--area ...] [--details]
  blotter export --data-dir DIR --format csv|geojson [--out FILE] [--types a,b]
                 [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--area "LAT,LON,RADIUS_MI"]
  blotter status --data-dir DIR

The API key comes from BLOTTER_API_KEY, else from the keychain entry the app stored for DIR.
sync prints progress on stderr and, as its last stdout line, a JSON summary:
  {"requests","incidents","new","updated","removed","rateLimited","seconds","lowerBoundRequests",...}
Exit codes: 0 complete; 1 failed (offline, server errors, disk full, ...); 2 bad arguments;
3 key refused (401); 4 this computer's IP is not on the key's allowlist (403); 5 finished but not
provably complete; 6 no API key; 7 another Blotter is syncing this area of the folder;
8 office database unreachable (office mode); 130 interrupted.
`;

const COMMANDS = {
  sync: { flags: SYNC_FLAGS, run: syncCommand },
  export: { flags: EXPORT_FLAGS, run: exportCommand },
  status: { flags: STATUS_FLAGS, run: statusCommand },
} as const;

export async function main(io: Io): Promise<number> {
  const [command] = io.argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  const entry = COMMANDS[command as keyof typeof COMMANDS];
  if (!entry) {
    io.err(
      `blotter: unknown command "${command}". Commands: sync, export, status. Run with --help for usage.\n`,
    );
    return EXIT.usage;
  }
  try {
    const parsed = parseArgs(io.argv, entry.flags);
    if (parsed.flags.has('help')) {
      io.out(USAGE);
      return EXIT.ok;
    }
    return await entry.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`blotter ${command}: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ApiError) {
      io.err(`blotter: ${error.message}\n`);
      return error.code === 'unauthorized'
        ? EXIT.unauthorized
        : error.code === 'ip_not_allowed'
          ? EXIT.ipNotAllowed
          : EXIT.failed;
    }
    if (error instanceof NoKeyError) {
      io.err(`blotter: ${error.message}\n`);
      return EXIT.noKey;
    }
    if (
      error instanceof DataDirError ||
      error instanceof DatabaseTooNewError ||
      error instanceof DatabaseOpenError ||
      error instanceof MigrationError
    ) {
      io.err(`blotter: ${error.message}\n`);
      return EXIT.failed;
    }
    const local = localFailureOf(error, openedDbFile());
    if (local) {
      io.err(`blotter: ${local.message}\n`);
      return EXIT.failed;
    }
    if (error instanceof EngineError) {
      io.err(`blotter: ${error.message}\n`);
      return error.code === 'already_syncing' ? EXIT.alreadySyncing : EXIT.failed;
    }
    io.err(`blotter: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}
