#!/usr/bin/env node
// `npm start [-- --data-dir DIR] [--demo]`: Blotter in Electron (--demo: synthetic demo data, see
// src-main/demo). Where Electron's binary is not installed (it cannot be downloaded on our build
// machines), says so in one line and starts the web host with the same arguments.
// Never calls require('electron'): since Electron 45 that downloads a missing binary.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, ROOT, runNode, runWebHost } from './web.mjs';

/** The Electron executable, if it is installed; null otherwise. */
function electronBinary() {
  let dir;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = path.join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && !relative) return null;
  const binary = override ? path.join(override, relative || 'electron') : path.join(dir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}

const args = process.argv.slice(2);
const electron = electronBinary();

if (!electron) {
  console.error(
    "Electron's binary is not installed on this machine (it cannot be downloaded here); starting the web host instead.",
  );
  process.exit(await runWebHost(args));
}

runNode(['scripts/native-abi.mjs', 'electron']);
build();
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron, ['.', ...args], { cwd: ROOT, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
