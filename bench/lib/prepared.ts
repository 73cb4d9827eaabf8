/**
 * What the benchmarks start from: a seeded data file (seeded once into bench/results/ and reused
 * while the schema and count are the same) and the built app (electron-vite, as `npm run web`
 * does, when out/ is missing or older than its sources).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMA_VERSION } from '../../src-main/engine/store/database';
import { seedDatabase, type SeedSummary } from '../seed';

export const RESULTS = path.join(import.meta.dirname, '..', 'results');
const ROOT = path.join(import.meta.dirname, '..', '..');

/** A seeded data file `NAME-COUNT.sqlite` (~30 s per million the first time; `onSeeded` hears it). */
export function seededFile(name: string, count: number, onSeeded?: (summary: SeedSummary) => void): string {
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${name}-${count}.sqlite`);
  const meta = `${file}.json`;
  if (existsSync(file) && existsSync(meta)) {
    const cached = JSON.parse(readFileSync(meta, 'utf8')) as { schema: number; count: number };
    if (cached.schema === SCHEMA_VERSION && cached.count === count) return file;
  }
  const summary = seedDatabase(file, { count, seed: 42 });
  writeFileSync(meta, JSON.stringify({ ...summary, schema: SCHEMA_VERSION }));
  onSeeded?.(summary);
  return file;
}

/** Builds the app (out/) when it is missing or older than its sources. */
export async function ensureBuilt(): Promise<void> {
  const web = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'web.mjs')).href)) as {
    buildIsStale(): boolean;
    build(): void;
  };
  if (web.buildIsStale()) web.build();
}
