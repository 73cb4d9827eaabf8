/**
 * Export benchmark: CSV of 1M incidents through the engine's own export job (startExport), run as
 * the app runs it — the built engine worker (out/main/engineWorker.js, built first when stale) and
 * its export threads — with the snapshot already loaded as it is once the app shows a count.
 *
 *   npx tsx bench/export.ts [--count 1000000] [--formats csv,geojson,gpkg]
 *
 * Prints JSON: rows/s (bound ≥ 300,000) and the peak growth of resident memory during the export
 * over the level before it (bound ≤ 100 MB), sampled every 10 ms; also GeoJSON and GeoPackage (with
 * its spatial index) for reference.
 * Wall-clock figures depend on what else the machine runs: cpuMs and rowsPerCpuSec (this process's
 * CPU time, all its threads) and the load average are printed beside them.
 * Leaves the CSV in bench/results/export-data/exports/ for bench/import.ts.
 */
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { EngineEvent } from '../src-shared/contract';
import type { StartExportOutput } from '../src-shared/exports';
import { dbFileOf } from '../src-main/engine/dataDir';
import { startBuiltEngine, engineCall as call } from './lib/builtEngine';
import { MB, RESULTS, rssSampler, seededFile, waitForEvent } from './lib/benchEngine';
import { round } from './lib/stats';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('count') ?? 1_000_000);
const FORMATS = ['csv', 'geojson', 'gpkg'] as const;
const formats = (arg('formats')?.split(',') ?? FORMATS).filter((f): f is (typeof FORMATS)[number] =>
  (FORMATS as readonly string[]).includes(f),
);
const out = (figure: Record<string, unknown>): void => console.log(JSON.stringify(figure));

type Progress = Extract<EngineEvent, { type: 'exportProgress' }>;
const finished =
  (jobId: string) =>
  (e: EngineEvent): e is Progress =>
    e.type === 'exportProgress' && e.jobId === jobId && ['done', 'failed', 'cancelled'].includes(e.state);

async function main(): Promise<void> {
  const file = seededFile('export', count);
  const dir = path.join(RESULTS, 'export-data');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(file, dbFileOf(dir));
  const engine = await startBuiltEngine(dir);
  const events: EngineEvent[] = [];
  engine.onEvent((e) => events.push(e));
  try {
    let t = performance.now();
    const { total } = await call<{ total: number }>(engine, 'countIncidents', { filters: { preset: 'all' } });
    out({
      bench: 'export-warmup',
      what: 'snapshot load + first count',
      ms: round(performance.now() - t),
      rows: total,
    });

    for (const format of formats) {
      global.gc?.();
      const sampler = rssSampler();
      const before = process.memoryUsage().rss;
      const cpu = process.cpuUsage();
      t = performance.now();
      const started = await call<StartExportOutput>(engine, 'startExport', {
        format,
        filters: { preset: 'all' },
      });
      const done = await waitForEvent(events, finished(started.jobId));
      const ms = performance.now() - t;
      const peak = sampler.stop();
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      if (done.state !== 'done') throw new Error(`export ${done.state}: ${done.error?.message ?? ''}`);
      const rows = done.manifest?.counts.written ?? 0;
      const rowsPerSec = Math.round(rows / (ms / 1000));
      const growthMb = round((peak - before) / MB);
      const bytes = statSync(done.file?.path as string).size;
      const figure = {
        bench: `export-${format}`,
        rows,
        ms: round(ms),
        rowsPerSec,
        cpuMs: round(cpuMs),
        rowsPerCpuSec: Math.round(rows / (cpuMs / 1000)),
        loadavg: round(loadavg()[0] ?? 0),
        mb: round(bytes / MB),
        peakRssGrowthMb: growthMb,
      };
      if (format === 'csv') {
        out({
          ...figure,
          boundRowsPerSec: 300_000,
          boundRssGrowthMb: 100,
          ok: rowsPerSec >= 300_000 && growthMb <= 100 && rows === total,
          file: path.relative(process.cwd(), done.file?.path as string),
        });
      } else out({ ...figure, note: 'reference only (no bound)' });
    }
  } finally {
    await engine.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
