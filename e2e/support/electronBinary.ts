/**
 * Where the Electron binary is, found without `require('electron')`: that call downloads the
 * binary when it is missing, and the e2e suite never downloads anything.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

export function electronBinary(): string {
  const override = process.env.BLOTTER_ELECTRON;
  if (override) {
    if (!existsSync(override)) throw new Error(`BLOTTER_ELECTRON names ${override}, which does not exist.`);
    return override;
  }
  const pkg = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(pkg, 'dist'), relative);
  if (!existsSync(binary)) {
    throw new Error(
      `The Electron binary is not installed on this machine (${binary} is missing), so the electron ` +
        'target cannot run here. Run the web target (the default), or set BLOTTER_ELECTRON to an Electron binary.',
    );
  }
  return binary;
}
