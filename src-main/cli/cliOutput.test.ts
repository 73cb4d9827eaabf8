/**
 * The CLI's lines, run as a process (issue 11, items 7 and 28): nothing from an area name or the API
 * reaches the terminal as an escape sequence; a refused key is said once; waits never say "about
 * 0 s left"; progress lines carry the time; a missing key exits 6; the simulator has --help.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { runCli, runEntry, syncArgs } from './cliTesting';

const KEY = 'cli-output-key-2828';
const EVIL = '\x1b[2J\x1b[H\x1b]0;pwned\x07\u202eevil';
let sim: Simulator;
let hostile: Server;
let hostileUrl: string;
let dir: TempDir;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    scale: 20_000,
    spanDays: 40,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  // A service whose error text carries escapes: a 400 is not retried, so its words reach the user at once.
  hostile = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errors: [`${EVIL} \x1b[31mred\x1b[0m \x9b2J`] }));
  });
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  dir = makeTempDir('blotter-cli-out-');
});
afterAll(async () => {
  await sim.close();
  await new Promise<void>((r) => hostile.close(() => r()));
  dir.remove();
});

const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(KEY, args, { env });
const run = (entry: string, args: string[]) => runEntry(entry, args);
const sync = (dataDir: string, baseUrl: string) => syncArgs(dataDir, baseUrl, '41.8837,-87.6289,0.3');
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('what the CLI prints', () => {
  it('prints progress lines with the time and no empty ETA', async () => {
    const r = await cli(sync(dir.path, sim.url));
    expect(r.code, r.stderr).toBe(0);
    const progress = r.stderr.split('\n').filter((l) => / sync: area /.test(l));
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(line).toMatch(/^\d\d:\d\d:\d\d sync: area 1 /);
    expect(r.stderr).not.toMatch(/about 0 s left/);
  });

  it('strips escapes from area names in status', async () => {
    const db = new Database(`${dir.path}/blotter.sqlite`);
    db.prepare('UPDATE areas SET name = ? WHERE id = 1').run(`${EVIL} Loop\r\n\x1b[1A`);
    db.close();
    const r = await cli(['status', '--data-dir', dir.path]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Area 1 "evil Loop');
    expect(r.stdout).not.toMatch(CONTROL);
  });

  it("strips escapes from the API's error text", async () => {
    const other = makeTempDir('blotter-cli-hostile-');
    try {
      const r = await cli(sync(other.path, hostileUrl));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^blotter: .*The service said: “evil red ?”/m);
      expect(r.stderr).not.toMatch(CONTROL);
      expect(r.stdout).not.toMatch(CONTROL);
    } finally {
      other.remove();
    }
  });

  it('says a refused key once, and exits 3', async () => {
    const r = await cli(sync(dir.path, sim.url), { BLOTTER_API_KEY: 'wrong-key-401401' });
    expect(r.code).toBe(3);
    expect(r.stderr.match(/refused the API key/g)).toHaveLength(1);
  });

  it('exits 6 with a clear message when there is no API key', async () => {
    const r = await cli(sync(dir.path, sim.url), {
      BLOTTER_API_KEY: undefined,
      DBUS_SESSION_BUS_ADDRESS: undefined,
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^blotter: No (API key|BLOTTER_API_KEY)/m);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('lists the exit codes in --help', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const code of ['6 no API key', '7 another Blotter', '8 office database'])
      expect(r.stdout).toContain(code);
  });
});

describe('npm run sim -- --help', () => {
  it('prints the usage and exits 0', async () => {
    const r = await run('src-sim/main.ts', ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run sim/);
    expect(r.stdout).toContain('--port');
  });
});

describe('a damaged data file', () => {
  it('is named as damaged, with what to do, not "unexpected error"', async () => {
    const fresh = makeTempDir('blotter-cli-corrupt-');
    try {
      expect((await cli(['status', '--data-dir', fresh.path])).code).toBe(0);
      const file = `${fresh.path}/blotter.sqlite`;
      const db = new Database(file);
      db.pragma('journal_mode = DELETE');
      db.close();
      const bytes = readFileSync(file);
      bytes.fill(0xa5, 4096); // every page but the first
      writeFileSync(file, bytes);
      const r = await cli(['status', '--data-dir', fresh.path]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^blotter: The data file .*blotter\.sqlite is damaged .*backup/m);
      expect(r.stderr).not.toMatch(/unexpected error/);
    } finally {
      fresh.remove();
    }
  });
});
