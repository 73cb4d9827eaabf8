#!/usr/bin/env node
// `npm run web [-- --data-dir DIR] [--port N] [--demo]`: the web host (src-main/web/main.ts) in this Node.
// Makes the native modules fit Node, builds (electron-vite) when the renderer or the engine worker
// in out/ is missing or older than its sources, then runs the host with the arguments. Build chatter goes to stderr, so the host's
// `Blotter is running at http://127.0.0.1:PORT/?token=…` is the first line the host writes to stdout.
// Also used by start.mjs where Electron's binary is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the web host loads from out/, and the sources each is built from. */
const BUILT = [
  ['out/renderer/index.html', ['src-renderer', 'src-shared', 'electron.vite.config.ts']],
  ['out/main/engineWorker.js', ['src-main/engine', 'src-shared', 'electron.vite.config.ts']],
];
const TO_STDERR = ['inherit', process.stderr, 'inherit'];

/** Runs a Node script to completion (its stdout sent to stderr); exits this process if it fails. */
export function runNode(args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: TO_STDERR });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** `electron-vite build`: main, preload and renderer into out/. */
export function build() {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('electron-vite/package.json');
  runNode([path.join(path.dirname(pkg), require(pkg).bin['electron-vite']), 'build']);
}

function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const info = statSync(file);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

export function buildIsStale() {
  return BUILT.some(([output, sources]) => {
    const file = path.join(ROOT, output);
    if (!existsSync(file)) return true;
    const built = statSync(file).mtimeMs;
    return sources.some((source) => newestMtime(path.join(ROOT, source)) > built);
  });
}

/**
 * Builds out/ when it is missing or older than its sources (`npm run web`, and the CLI's `report`,
 * which prints the built report page). Build chatter goes to stderr; a failed build exits.
 */
export function ensureBuilt(who = '[web]') {
  if (!buildIsStale()) return;
  console.error(`${who} building Blotter (electron-vite build)…`);
  build();
}

/** Starts the web host with `args`; resolves with its exit code. Signals reach it too. */
export function runWebHost(args) {
  runNode(['scripts/native-abi.mjs', 'node']);
  ensureBuilt();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/web/main.ts', ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  // The host stops cleanly on SIGINT/SIGTERM and ignores repeats, so forwarding is always safe
  // (Ctrl+C in a terminal also reaches it directly).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  process.exit(await runWebHost(process.argv.slice(2)));
}
