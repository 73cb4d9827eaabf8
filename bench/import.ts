/**
 * Import benchmark: 1M rows of Blotter CSV (the file bench/export.ts wrote, or one it writes now)
 * into a fresh data folder through the engine's own calls — previewImport (read, check, stage every
 * row) then runImport (one transaction) — as the app runs them.
 *
 *   npx tsx bench/import.ts [--count 1000000]
 *
 * Prints JSON: rows/s over preview + run (bound ≥ 100,000), each phase's time, the rows in the
 * archive afterwards, and this process's CPU time and the load average beside the wall clock.
 */
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { ImportPreview, ImportResult } from '../src-shared/exports';
import { phases } from '../src-main/engine/import/merge';
import { benchEngine, call, RESULTS } from './lib/benchEngine';
import { round } from './lib/stats';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);

function exportedCsv(): string {
  const dir = path.join(RESULTS, 'export-data', 'exports');
  const find = (): string | undefined => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.csv'))
        .sort()
        .map((f) => path.join(dir, f))
        .at(-1);
    } catch {
      return undefined;
    }
  };
  const found = find();
  if (found) return found;
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'export.ts'), '--count', String(count)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const made = find();
  if (!made) throw new Error('bench/export.ts wrote no CSV');
  return made;
}

async function main(): Promise<void> {
  const csv = exportedCsv();
  const { engine } = benchEngine(path.join(RESULTS, 'import-data'));
  try {
    const cpu = process.cpuUsage();
    let t = performance.now();
    const preview = await call<ImportPreview>(engine, 'previewImport', { source: { path: csv } });
    const previewMs = performance.now() - t;
    t = performance.now();
    const result = await call<ImportResult>(engine, 'runImport', {
      importId: preview.importId,
      onBadRows: 'abort',
    });
    const runMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const { total } = await call<{ total: number }>(engine, 'countIncidents', {
      filters: { preset: 'all', includeRemoved: true },
    });
    const ms = previewMs + runMs;
    const rowsPerSec = Math.round(preview.rows / (ms / 1000));
    console.log(
      JSON.stringify({
        bench: 'import-csv',
        rows: preview.rows,
        valid: preview.valid,
        errors: preview.errorCount,
        inserted: result.inserted,
        inArchive: total,
        previewMs: round(previewMs),
        runMs: round(runMs),
        runPhasesMs: { ...phases },
        ms: round(ms),
        rowsPerSec,
        cpuMs: round(cpuMs),
        rowsPerCpuSec: Math.round(preview.rows / (cpuMs / 1000)),
        loadavg: round(loadavg()[0] ?? 0),
        boundRowsPerSec: 100_000,
        ok: rowsPerSec >= 100_000 && preview.errorCount === 0 && total === preview.valid,
      }),
    );
  } finally {
    await engine.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
