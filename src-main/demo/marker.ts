/**
 * Where the demo lives and how a demo folder is recognised. The demo has a data folder of its own,
 * next to the real one: `<data folder>-demo` (so `~/.config/Blotter-demo` on Linux,
 * `~/Library/Application Support/Blotter-demo` on macOS, `%APPDATA%\Blotter-demo` on Windows, and
 * `/tmp/x-demo` for `--data-dir /tmp/x`). A marker file in it says it holds synthetic data; only a
 * folder with that marker is ever deleted by "Remove demo data".
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensureDir } from '../engine/index';

export const MARKER_FILE = 'blotter-demo.json';
export const DEMO_SUFFIX = '-demo';

const Marker = z.object({
  kind: z.literal('blotter-demo'),
  version: z.literal(1),
  createdAt: z.number(),
  /** The simulator's start clock: the demo's incidents are generated as of this instant, every time. */
  simStart: z.number(),
  /** The real data folder this demo belongs to (where "Remove demo data" returns). */
  realDataDir: z.string(),
  note: z.string().optional(),
});
export type DemoMarker = z.infer<typeof Marker>;

export const demoDataDirOf = (dataDir: string): string =>
  path.join(path.dirname(dataDir), `${path.basename(dataDir)}${DEMO_SUFFIX}`);

export function readMarker(dir: string): DemoMarker | null {
  const file = path.join(dir, MARKER_FILE);
  if (!existsSync(file)) return null;
  try {
    return Marker.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

/**
 * Creates the demo folder (mode 0700) with its marker; keeps an existing marker. A folder of that
 * name that holds something else is never adopted (removing the demo would delete it).
 */
export function ensureDemoDir(dir: string, realDataDir: string, now: number): DemoMarker {
  const existing = readMarker(dir);
  if (existing) return existing;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(
      `${dir} already exists and is not a Blotter demo folder. Move it away, or start Blotter with another --data-dir.`,
    );
  }
  ensureDir(dir);
  const marker: DemoMarker = {
    kind: 'blotter-demo',
    version: 1,
    createdAt: now,
    simStart: now,
    realDataDir,
    note: 'Synthetic demo data made by Blotter from its built-in simulator. Not real incidents. Safe to delete.',
  };
  writeFileSync(path.join(dir, MARKER_FILE), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
  return marker;
}

/** Deletes a demo folder — only one that carries the marker, so a real data folder is never touched. */
export function removeDemoDir(dir: string): void {
  if (!existsSync(dir)) return;
  if (!readMarker(dir)) {
    throw new Error(`${dir} is not a Blotter demo folder (it has no ${MARKER_FILE}); it was left alone.`);
  }
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
