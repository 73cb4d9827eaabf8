/** Entry point: `npm run cli -- <command> ...` (tsx src-main/cli/main.ts). See run.ts and README.md. */
import { processIo } from './io';
import { main } from './run';

main(processIo).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    processIo.err(`blotter: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
