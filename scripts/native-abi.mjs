#!/usr/bin/env node
// Makes the native modules (better-sqlite3, keytar) match the runtime about to use them.
// `npm install` builds them for Node; Electron needs them rebuilt for its own ABI. This script
// rebuilds only when the built ABI differs from the target's, so `npm start` and `npm test`
// work in either order with no manual step. Usage: node scripts/native-abi.mjs node|electron
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const MODULES = ['better-sqlite3', 'keytar'];
const STAMP = new URL('../node_modules/.blotter-native-target', import.meta.url);
const target = process.argv[2];
if (target !== 'node' && target !== 'electron') {
  console.error('usage: node scripts/native-abi.mjs node|electron');
  process.exit(2);
}

const builtFor = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : 'node';
const wanted = target === 'node' ? `node-${process.versions.modules}` : `electron-${electronVersion()}`;

function electronVersion() {
  const require = createRequire(import.meta.url);
  return require('electron/package.json').version;
}

/** True when every native module loads in this Node (the only ABI we can probe directly). */
function loadsInNode() {
  const probe = MODULES.map((m) => `require(${JSON.stringify(m)})`).join(';');
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

if (target === 'node') {
  if (builtFor.startsWith('node') && loadsInNode()) process.exit(0);
  console.error(`[native] rebuilding ${MODULES.join(', ')} for Node ${process.version}…`);
  execFileSync('npm', ['rebuild', ...MODULES], { stdio: 'inherit' });
} else {
  if (builtFor === wanted) process.exit(0);
  console.error(`[native] rebuilding ${MODULES.join(', ')} for Electron ${electronVersion()}…`);
  execFileSync('npx', ['electron-rebuild', '-f', '-o', MODULES.join(',')], { stdio: 'inherit' });
}
writeFileSync(STAMP, wanted + '\n');
