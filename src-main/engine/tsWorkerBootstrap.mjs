// Starts the engine worker from TypeScript source (tests, `tsx` hosts): registers tsx's loader in
// this thread, then imports the .ts entry named by argv. Node 20 ignores `--import tsx` in a
// worker's execArgv for the entry itself, hence this step. Bundled builds never use it.
import { argv } from 'node:process';
import { register } from 'tsx/esm/api';

register();
await import(argv[2]);
