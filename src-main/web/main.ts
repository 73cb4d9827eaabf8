/**
 * `npm run web`: the engine and the built renderer in a browser, on 127.0.0.1. It runs the built
 * bundles (out/renderer, out/main/engineWorker.js; scripts/web.mjs rebuilds them when stale), so
 * the browser gets exactly what Electron would load. The first line on stdout is exactly
 * `Blotter is running at http://127.0.0.1:PORT/?token=TOKEN` (tools parse it); everything else
 * goes to stderr. Ctrl+C (SIGINT) or SIGTERM closes the server, then the engine.
 * `--demo` starts in demo mode (src-main/demo): the simulator in this process, synthetic data in
 * `<data folder>-demo`. The welcome screen can start and remove the demo while the host runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { PRIVATE_UMASK, resolveDataDir, startEngine } from '../engine/index';
import { startDemoHost } from '../demo/demoHost';
import { parseWebArgs, USAGE, UsageError } from './args';
import { startWebHost } from './server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RENDERER_DIR = path.join(ROOT, 'out', 'renderer');
/** The engine worker as electron-vite built it for Electron: the web host runs the same bundle. */
const ENGINE_WORKER = path.join(ROOT, 'out', 'main', 'engineWorker.js');
const SHUTDOWN_TIMEOUT_MS = 5_000;

async function main(argv: readonly string[]): Promise<void> {
  // Every file and folder this process and its worker threads create is the user's alone (0600
  // files, 0700 folders): set before the data folder, the log or any worker exists.
  process.umask(PRIVATE_UMASK);
  const args = parseWebArgs(argv);
  if (args.help) {
    console.error(USAGE);
    return;
  }
  if (!existsSync(path.join(RENDERER_DIR, 'index.html')) || !existsSync(ENGINE_WORKER)) {
    console.error('Blotter is not built (out/renderer or out/main is missing): run `npm run build` first.');
    process.exit(1);
  }
  const dataDir = resolveDataDir({ argv, env: process.env, platform: process.platform, homedir: homedir() });
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  if (args.demo) console.error('Starting the demo: synthetic incidents from the built-in simulator…');
  const demo = await startDemoHost({
    dataDir,
    demo: args.demo,
    // Typed arrays come base64'd from the worker: no encoding on this event loop (issue 13).
    startEngine: (o) =>
      startEngine({ ...o, host: 'web', version, workerPath: ENGINE_WORKER, wireTypedArrays: true }),
  });
  const engine = demo.engine;
  let host: Awaited<ReturnType<typeof startWebHost>>;
  try {
    host = await startWebHost({ engine, rendererDir: RENDERER_DIR, port: args.port });
  } catch (error) {
    await engine.close();
    throw error;
  }
  process.stdout.write(`Blotter is running at ${host.url}\n`);
  const showing = demo.status().active
    ? `Demo data folder (synthetic data): ${demo.dataDir}`
    : `Data folder: ${dataDir}`;
  console.error(`${showing}. Press Ctrl+C to stop.`);

  // One Ctrl+C can arrive several times (from the terminal, and forwarded by npm and
  // scripts/web.mjs): repeats are ignored; the timeout below bounds the shutdown.
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error('Blotter did not stop in time; exiting.');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    host
      .close()
      .then(() => engine.close())
      .then(() => {
        console.error('Blotter stopped.');
        process.exit(0);
      })
      .catch((error: unknown) => {
        console.error('Blotter stopped with an error:', error instanceof Error ? error.message : error);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`Blotter could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
