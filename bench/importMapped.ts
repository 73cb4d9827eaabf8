/**
 * Import benchmark with a column mapping: a records-system CSV (case numbers, offence codes mapped
 * to types, block addresses, separate date and time columns, X/Y in Texas North Central State
 * Plane US feet, a kept column) of `--count` rows, through the built engine's previewImport (with
 * the mapping: applied in the check threads) and runImport. Bound: ≥ 100,000 rows/s over both.
 *
 *   npx electron-vite build && npx tsx bench/importMapped.ts [--count 1000000] [--compare]
 *
 * The machine is shared, so the wall clock moves with the load: `--compare` then runs the plain
 * import benchmark (bench/import.ts, a Blotter CSV of the same size) right after (this engine
 * closed first), and prints both rates, their ratio, and each run's CPU time (all threads) beside
 * the load average (at the start and at the end); `runPhasesMs` are the run's phases from the log.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { ImportPreview, ImportResult } from '../src-shared/exports';
import { logFileOf } from '../src-main/engine/dataDir';
import { engineCall as call, startBuiltEngine } from './lib/builtEngine';
import { RESULTS } from './lib/benchEngine';
import { RMS_MAPPING, writeRmsCsv } from './lib/rmsCsv';
import { round } from './lib/stats';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);
async function main(): Promise<void> {
  const file = path.join(RESULTS, `rms-${count}.csv`);
  await writeRmsCsv(file, count);
  const dataDir = path.join(RESULTS, 'import-mapped-data');
  rmSync(dataDir, { recursive: true, force: true });
  const engine = await startBuiltEngine(dataDir);
  const loadAtStart = loadavg()[0] ?? 0;
  let measured: Record<string, unknown>;
  let rowsPerSec: number;
  let cpuMs: number;
  let ok: boolean;
  try {
    const cpu = process.cpuUsage();
    let t = performance.now();
    const preview = await call<ImportPreview>(engine, 'previewImport', {
      source: { path: file },
      mapping: RMS_MAPPING,
    });
    const previewMs = performance.now() - t;
    t = performance.now();
    const result = await call<ImportResult>(engine, 'runImport', {
      importId: preview.importId,
      onBadRows: 'abort',
    });
    const runMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const ms = previewMs + runMs;
    rowsPerSec = Math.round(preview.rows / (ms / 1000));
    cpuMs = round((used.user + used.system) / 1000);
    ok = rowsPerSec >= 100_000 && preview.errorCount === 0;
    measured = {
      bench: 'import-mapped-csv',
      rows: preview.rows,
      valid: preview.valid,
      errors: preview.errorCount,
      inserted: result.inserted,
      previewMs: round(previewMs),
      previewRowsPerSec: Math.round(preview.rows / (previewMs / 1000)),
      runMs: round(runMs),
      runPhasesMs: runPhases(dataDir),
      ms: round(ms),
      rowsPerSec,
      cpuMs,
      loadavgAtStart: round(loadAtStart),
      loadavg: round(loadavg()[0] ?? 0),
    };
  } finally {
    await engine.close();
  }
  // After the engine is closed: its work after the run (the query snapshot read again, the
  // background checkpoint) would otherwise land in the plain import's figure.
  const plain = process.argv.includes('--compare') ? plainImport() : null;
  console.log(
    JSON.stringify({
      ...measured,
      ...(plain
        ? {
            plainRowsPerSec: plain.rowsPerSec,
            plainCpuMs: plain.cpuMs,
            plainLoadavg: plain.loadavg,
            ratioToPlain: round(rowsPerSec / plain.rowsPerSec),
            cpuRatioToPlain: round(cpuMs / plain.cpuMs),
          }
        : {}),
      boundRowsPerSec: 100_000,
      ok,
    }),
  );
}

/** The run's phases, from the engine's log line for it (as bench/import.ts reads them). */
function runPhases(dataDir: string): unknown {
  const line = readFileSync(logFileOf(dataDir), 'utf8')
    .split('\n')
    .findLast((l) => l.includes('import written'));
  const json = line?.slice(line.indexOf('{'));
  return json ? (JSON.parse(json) as { phases?: unknown }).phases : null;
}

/** bench/import.ts run now, as a child process: its JSON line. */
function plainImport(): { rowsPerSec: number; cpuMs: number; loadavg: number } {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'import.ts'), '--count', String(count)],
    {
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  ).toString();
  const line = out
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"bench":"import-csv"'));
  if (!line) throw new Error('bench/import.ts printed no result.');
  return JSON.parse(line) as { rowsPerSec: number; cpuMs: number; loadavg: number };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
