/** Entry point: `npm run cli -- <command> ...` (tsx src-main/cli/main.ts). See run.ts and README.md. */
import { PRIVATE_UMASK } from '../engine/index';
import { processIo } from './io';
import { main } from './run';

// Files 0600 and folders 0700 for everything this process and its worker threads write.
process.umask(PRIVATE_UMASK);

main(processIo).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    processIo.err(`blotter: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
