/** A fresh temporary folder per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type TempDir = { readonly path: string; remove(): void };

export function makeTempDir(prefix = 'blotter-test-'): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
