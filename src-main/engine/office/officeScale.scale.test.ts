/**
 * The office at scale: five Blotter processes on one key (60 requests a minute at the simulator)
 * and one area set, each syncing every area — one leads each area, the others pull — with the
 * leader of an area killed (-9) in the middle of its run. The simulator, behind a recording
 * proxy, sees no 429 and no tile page asked twice but the one the killed leader had in flight;
 * afterwards the five replicas and the office archive hold the same incidents, and the same as a
 * standalone Blotter's sync of the same areas.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { createAreaStore } from '../areas/areaStore';
import { simOptions, startHarness, storedIn, truthIn } from '../sync/testing/harness';
import { staleSince } from '../sync/windowStart';
import { startForwardingProxy, type ForwardingProxy } from '../testing/forwardingProxy';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { officeAreaEdits } from './areaEdits';
import { officeDigest, replicaDigest } from './digest';
import { createOfficeLimiter, keyHmac } from './limiter';
import { openDesk } from './officeDesk.testing';
import { readOfficeLink } from './replica';
import { startTestPostgres, type TestPostgres } from './pgTesting';
import { openDatabase } from '../store/database';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OFFICE_KEY = 'office-scale-key-0060';
const RATE = 60;
const WORKER = 'src-main/engine/office/scaleWorker.testing.ts';
const SHAPES = [
  { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 },
  { kind: 'circle' as const, lat: 40.7549, lon: -73.966, radiusMi: 0.45 },
  { kind: 'circle' as const, lat: 40.741, lon: -73.99, radiusMi: 0.35 },
];

let server: TestPostgres;
let sim: Simulator;
let tmp: TempDir;
let proxy: ForwardingProxy | undefined;
let proxyUrl = '';
/** What reached the simulator: each search's URL and its status. */
const seen: { url: string; status: number }[] = [];
/** Every answer's status (searches and descriptions). */
const statuses: number[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
  const base = simOptions();
  sim = await startSimulator({
    ...base,
    keys: [
      ...base.keys,
      { key: OFFICE_KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE, windowDays: 30 },
    ],
  });
  tmp = makeTempDir('blotter-office-scale-');
  proxy = await startForwardingProxy(sim.url, {
    onAnswer: (url, status) => {
      statuses.push(status);
      if (url.includes('/crimes.json?')) seen.push({ url, status });
    },
  });
  proxyUrl = proxy.url;
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await sim?.close();
  server?.stop();
  tmp?.remove();
});

type Worker = { holder: string; child: ChildProcess; out: string; exit: Promise<number | null> };

test('five processes on one key and one area set, the leader killed mid-run: no 429, no page asked twice but the killed one, identical archives', async () => {
  const simNow = sim.clock.nowMs();
  const t0 = Date.now();
  const dirOf = (i: number) => path.join(tmp.path, `desk-${i}`);

  // The areas are the office's, drawn on desk 0.
  const setup = await openDesk({
    dir: dirOf(0),
    pgUrl: server.url,
    password: server.password,
    baseUrl: proxyUrl,
    key: OFFICE_KEY,
    ratePerMinute: RATE,
    windowDays: 30,
    now: () => simNow,
  });
  const edits = officeAreaEdits(setup.db, createAreaStore(setup.db), async () => setup.pool, setup.pull);
  const ids: number[] = [];
  for (const [k, shape] of SHAPES.entries())
    ids.push((await edits.create({ name: `A${k}`, shape }, simNow)).id);
  const officeId = readOfficeLink(setup.db)!.office_id;
  await setup.close();

  const start = (i: number, sync = true): Worker => {
    const holder = `p${i}`;
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      cwd: ROOT,
      env: {
        ...process.env,
        BLOTTER_LOG_LEVEL: 'warn',
        BLOTTER_SCALE: JSON.stringify({
          dir: dirOf(i),
          pgUrl: server.url,
          password: server.password,
          baseUrl: proxyUrl,
          key: OFFICE_KEY,
          holder,
          // Each desktop asks for the areas in its own order: leaders of different areas at once.
          areaIds: sync ? [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)] : [],
          simNow,
          t0,
          rate: RATE,
          ttlMs: 10_000, // a loaded CI machine may delay a heartbeat by seconds
        }),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const w: Worker = {
      holder,
      child,
      out: '',
      exit: new Promise((r) => child.on('exit', (code) => r(code))),
    };
    child.stdout!.on('data', (d: Buffer) => (w.out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (w.out += d.toString()));
    return w;
  };
  const workers = [0, 1, 2, 3, 4].map((i) => start(i));
  const ready = (w: Worker) =>
    new Promise<void>((resolve, reject) => {
      const look = () => (w.out.includes('"ready":true') ? resolve() : undefined);
      w.child.stdout!.on('data', look);
      void w.exit.then(() => reject(new Error(`${w.holder} exited: ${w.out}`)));
      look();
    });
  await Promise.all(workers.map(ready));

  // A sixth desktop has just spent most of the key's minute (through the office ledger): the
  // five must share what is left and then wait for the window, never overrunning the plan.
  const spent = createOfficeLimiter(await poolOf(), keyHmac(OFFICE_KEY, officeId), 'desk-6');
  for (let k = 0; k < RATE - 4; k++) {
    const slot = await spent.admit(RATE);
    if (!('id' in slot)) throw new Error('the ledger refused the sixth desktop');
    const r = await fetch(`${proxyUrl}/crimes/${k + 1}.json?key=${OFFICE_KEY}`);
    await r.arrayBuffer();
    await spent.end(slot.id, r.status);
  }
  for (const w of workers) w.child.stdin!.end('go\n');

  // Kill -9 the first leader found with a page committed and its run not yet ended (the first
  // backfill of these areas is only a few pages now, so waiting for a third could miss them all).
  const admin = await server.admin();
  admin.on('error', () => undefined); // the server stops in afterAll; a failed run leaves this open
  let killed: Worker | null = null;
  while (!killed) {
    const r = await admin.query<{ holder: string; done: number; state: string }>(
      "SELECT holder, (run->>'done')::int AS done, run->>'state' AS state FROM sync_state",
    );
    const hit = r.rows.find((s) => s.state === 'running' && s.done >= 1);
    if (hit) {
      killed = workers.find((w) => w.holder === hit.holder)!;
      killed.child.kill('SIGKILL');
    } else if (r.rows.length === ids.length && r.rows.every((s) => s.state === 'done')) break;
    else await new Promise((res) => setTimeout(res, 100));
  }
  expect(killed, 'a leader was killed mid-run').not.toBeNull();
  const codes = await Promise.all(workers.map((w) => w.exit));
  for (const [i, w] of workers.entries()) if (w !== killed) expect(codes[i], `${w.holder}: ${w.out}`).toBe(0);
  // The killed desktop opens again, after the run: its replica catches up by the pull.
  const again = start(Number(killed!.holder.slice(1)), false);
  await ready(again);
  again.child.stdin!.end('go\n');
  expect(await again.exit, again.out).toBe(0);
  const lines = (w: Worker) =>
    w.out
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { run?: { state: string; ledBy?: string }; digest?: unknown });
  const finals = [...workers.filter((w) => w !== killed), again].map((w) => lines(w));
  const others = workers.filter((w) => w !== killed);
  for (const [i, f] of finals.slice(0, -1).entries())
    expect(
      f.filter((l) => l.run).map((l) => l.run!.state),
      others[i]!.out,
    ).toEqual(['done', 'done', 'done']);

  // The simulator: no 429; no tile page asked twice but the one the killed leader held.
  expect(statuses.filter((s) => s === 429)).toEqual([]);
  expect(statuses.length).toBeGreaterThan(RATE); // the key's minute was overrun but for the office's ledger
  const probe = `since=${staleSince(simNow + (Date.now() - t0), 30)}`;
  const pages = seen.filter((s) => !s.url.includes(probe)).map((s) => s.url);
  const repeated = pages.filter((u, k) => pages.indexOf(u) !== k);
  expect(repeated.length, `pages asked again: ${repeated.join(' ')}`).toBeLessThanOrEqual(1);

  // Five replicas, the office archive: the same incidents; and the same as a standalone sync.
  const office = await officeDigest(await poolOf());
  for (const f of finals) expect(f.at(-1)!.digest).toEqual(office);
  const alone = await startHarness(await startSimulator(simOptions()));
  try {
    for (const shape of SHAPES) {
      const a = alone.service.areas.create({ name: 'alone', shape }, alone.sim.clock.nowMs());
      expect((await alone.service.syncAreas([a], alone.conn))[0]?.state).toBe('done');
    }
    expect(await officeDigest(await poolOf(), true)).toEqual(replicaDigest(alone.db, true));
  } finally {
    await alone.close();
  }
  const replica = openDatabase(path.join(dirOf(1), 'blotter.sqlite'));
  for (const shape of SHAPES)
    expect([...truthIn(sim, shape)].filter((c) => !storedIn(replica, shape).has(c))).toEqual([]);
  replica.close();
  await admin.end();
  console.log(
    JSON.stringify({
      requests: seen.length,
      killed: killed!.holder,
      incidents: office.rows,
      ms: Date.now() - t0,
    }),
  );
}, 300_000);

let pool: Awaited<ReturnType<typeof openDesk>>['pool'] | null = null;
async function poolOf() {
  const { openOfficePool } = await import('./officeDb');
  const { parseOfficeUrl } = await import('./officeUrl');
  pool ??= openOfficePool(parseOfficeUrl(server.url), server.password);
  return pool;
}
afterAll(async () => {
  await pool?.end();
});
