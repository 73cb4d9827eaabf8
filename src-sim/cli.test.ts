/** `npm run sim`: flags, the first stdout line, the keys file, and clean failure on bad input. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'blotter-sim-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): {
  child: ChildProcess;
  firstLine: Promise<string>;
  exit: Promise<number | null>;
} {
  // Node itself with tsx's loader (not the tsx wrapper), so signals reach the simulator directly.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-sim/main.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`exited (${code}) before printing; stdout: ${out}`)));
  });
  firstLine.catch(() => undefined); // awaited only by the tests that expect a start
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, firstLine, exit };
}

describe('sim CLI', () => {
  it('prints `listening on http://127.0.0.1:PORT` first and serves the keys file', async () => {
    const keys = join(dir, 'keys.json');
    writeFileSync(keys, JSON.stringify([{ key: 'file-key', plan: 'pro-annual', ips: ['127.0.0.1'] }]));
    const { child, firstLine, exit } = run([
      '--port',
      '0',
      '--seed',
      '3',
      '--keys',
      keys,
      '--now',
      '2025-06-01T12:00:00Z',
      '--scale',
      'tiny',
    ]);
    const line = await firstLine;
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('listening on '.length);
    const ok = await fetch(`${url}/crimes.json?lat=41.8837&lon=-87.6289&radius=0.01&key=file-key`);
    expect(ok.status).toBe(200);
    expect((await fetch(`${url}/crimes.json?lat=41.8837&lon=-87.6289&radius=0.01&key=demo-key`)).status).toBe(
      401,
    );
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('takes the live readings as flags: great-circle distance, inclusive since, a radius limit and clamp', async () => {
    const { child, firstLine, exit } = run([
      '--scale',
      'tiny',
      '--now',
      '2025-06-01T12:00:00Z',
      '--search-distance',
      'great-circle',
      '--since-mode',
      'inclusive',
      '--max-radius-deg',
      '0.05',
      '--radius-clamp-mi',
      '1',
    ]);
    const url = (await firstLine).slice('listening on '.length);
    const at = `${url}/crimes.json?lat=41.8837&lon=-87.6289&key=demo-key&radius=`;
    expect((await fetch(`${at}0.05`)).status).toBe(200);
    const over = await fetch(`${at}0.06`);
    expect(over.status).toBe(400);
    expect(await over.text()).toMatch(/radius/);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const bad = run(['--since-mode', 'sometimes']);
    let err = '';
    bad.child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    expect(await bad.exit).toBe(2);
    expect(err).toMatch(/--since-mode must be one of exclusive, inclusive/);
  });

  it('refuses a bad keys file with a message and exit code 2', async () => {
    const keys = join(dir, 'bad.json');
    writeFileSync(keys, JSON.stringify([{ key: 'k', plan: 'gold', ips: [] }]));
    const { child, exit } = run(['--keys', keys]);
    let err = '';
    child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    expect(await exit).toBe(2);
    expect(err).toMatch(/invalid keys: 0\.plan/);
  });
});
