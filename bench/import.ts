/**
 * Import benchmark: 1M rows of Blotter CSV (the file bench/export.ts wrote, or one it writes now)
 * into a fresh data folder through the engine's own calls — previewImport (read, check and stage
 * every row, large CSV on several threads) then runImport (one transaction) — as the app runs them:
 * the built engine worker (out/main/engineWorker.js, built first when stale) with its helper threads.
 *
 *   npx tsx bench/import.ts [--count 1000000]
 *
 * Prints JSON: rows/s over preview + run (bound ≥ 100,000) and each step's own rate, the run's
 * phases (from the engine's log), the rows in the archive afterwards, and this process's CPU time
 * (all its threads) and the load average beside the wall clock; and the run's progress — how many
 * importProgress events came and the longest time without one (issue 31: the merge's rows step
 * was silent for 5–19 s).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { ImportPreview, ImportResult } from '../src-shared/exports';
import { logFileOf } from '../src-main/engine/dataDir';
import { engineCall as call, startBuiltEngine } from './lib/builtEngine';
import { RESULTS } from './lib/benchEngine';
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

/** The run's phases, from the engine's log line for it. */
function runPhases(dataDir: string): unknown {
  const line = readFileSync(logFileOf(dataDir), 'utf8')
    .split('\n')
    .findLast((l) => l.includes('import written'));
  const json = line?.slice(line.indexOf('{'));
  return json ? (JSON.parse(json) as { phases?: unknown }).phases : null;
}

async function main(): Promise<void> {
  const csv = exportedCsv();
  const dataDir = path.join(RESULTS, 'import-data');
  rmSync(dataDir, { recursive: true, force: true });
  const engine = await startBuiltEngine(dataDir);
  try {
    const cpu = process.cpuUsage();
    let t = performance.now();
    const preview = await call<ImportPreview>(engine, 'previewImport', { source: { path: csv } });
    const previewMs = performance.now() - t;
    t = performance.now();
    const heard: number[] = [];
    const stopListening = engine.onEvent((e) => {
      if (e.type === 'importProgress' && e.phase === 'writing') heard.push(performance.now());
    });
    const result = await call<ImportResult>(engine, 'runImport', {
      importId: preview.importId,
      onBadRows: 'abort',
    });
    const runMs = performance.now() - t;
    stopListening();
    const silences = [...heard, t + runMs].map((at, k) => at - (k === 0 ? t : (heard[k - 1] as number)));
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
        previewRowsPerSec: Math.round(preview.rows / (previewMs / 1000)),
        runMs: round(runMs),
        runRowsPerSec: Math.round(preview.rows / (runMs / 1000)),
        runPhasesMs: runPhases(dataDir),
        runProgressEvents: heard.length,
        runLongestSilenceMs: round(Math.max(...silences)),
        ms: round(ms),
        rowsPerSec,
        cpuMs: round(cpuMs),
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
