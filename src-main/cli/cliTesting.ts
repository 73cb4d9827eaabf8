/**
 * Test helpers: the CLI (or another entry point) run as a process from the repository root, as a
 * user runs it — tsx, the process's environment plus the given variables (undefined removes one),
 * the log kept off stderr.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

// Each CLI process starts Node and compiles the CLI through tsx: seconds apiece on a loaded 2-core
// machine, so in every file using these helpers a test (which runs several) gets two minutes — the
// default 30 s failed two tests of cliCommands.test.ts at load 8; they take 10–13 s at load 3.
vi.setConfig({ testTimeout: 120_000 });

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = 'src-main/cli/main.ts';

export type Ran = { code: number; stdout: string; stderr: string };

export type RunOptions = {
  env?: Record<string, string | undefined>;
  /** Written to standard input (which is then closed). */
  stdin?: string;
};

/** Runs `entry` (a TypeScript file under the root) with `args` and waits for it to exit. */
export function runEntry(entry: string, args: string[], opts: RunOptions = {}): Promise<Ran> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    BLOTTER_LOG_LEVEL: 'warn',
    ...opts.env,
  };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', entry, ...args],
      { cwd: ROOT, env: merged as NodeJS.ProcessEnv, timeout: 120_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(opts.stdin ?? '');
  });
}

/** `blotter ARGS` with the API key `key` in BLOTTER_API_KEY (plus `opts.env`). */
export const runCli = (key: string, args: string[], opts: RunOptions = {}): Promise<Ran> =>
  runEntry(CLI, args, { ...opts, env: { BLOTTER_API_KEY: key, ...opts.env } });

/** `sync` of one area on the simulator's Enterprise terms used by the tests (6,000 a minute, 30 days). */
export const syncArgs = (dataDir: string, baseUrl: string, area: string, rate = 6000): string[] => [
  'sync',
  '--data-dir',
  dataDir,
  '--base-url',
  baseUrl,
  '--plan',
  'enterprise',
  '--rate',
  String(rate),
  '--window-days',
  '30',
  '--area',
  area,
];

/** The last stdout line as JSON: sync's summary. */
export const lastJson = (out: string): Record<string, unknown> =>
  JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;

/** The only stderr line (a failure is said once). */
export function onlyLine(r: Ran): string {
  const lines = r.stderr.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one stderr line, got ${lines.length}:\n${r.stderr}`);
  return lines[0] as string;
}
