/**
 * One Blotter desktop of the office scale test (officeScale.scale.test.ts), as its own process: its data
 * folder joined to the office database, its sync of the area set leading or following each area
 * (the engine's office wiring, officeDesk.testing.ts), then a last pull. Prints one JSON line per
 * area summary and a last line with the replica's digest. Run: node --import tsx THIS_FILE,
 * BLOTTER_SCALE = JSON of the options below.
 */
import { replicaDigest } from './digest';
import { openDesk } from './officeDesk.testing';

type Options = {
  dir: string;
  pgUrl: string;
  password: string;
  baseUrl: string;
  key: string;
  holder: string;
  areaIds: number[];
  /** The simulator's time when the test started, and the test's start (the desks' shared clock). */
  simNow: number;
  t0: number;
  rate: number;
  ttlMs: number;
};

async function main(): Promise<void> {
  const o = JSON.parse(process.env.BLOTTER_SCALE ?? '{}') as Options;
  const desk = await openDesk({
    dir: o.dir,
    pgUrl: o.pgUrl,
    password: o.password,
    baseUrl: o.baseUrl,
    key: o.key,
    ratePerMinute: o.rate,
    windowDays: 30,
    now: () => o.simNow + (Date.now() - o.t0),
    ttlMs: o.ttlMs,
    followEveryMs: 250,
    holder: o.holder,
  });
  const areas = o.areaIds.map((id) => desk.service.areas.get(id)!);
  // Ready: the test starts every desktop's sync at once (a line on standard input).
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const runs = await desk.service.syncAreas(areas, desk.conn);
  for (const r of runs) process.stdout.write(`${JSON.stringify({ run: r })}\n`);
  await desk.pull();
  process.stdout.write(
    `${JSON.stringify({ digest: replicaDigest(desk.db), stats: desk.service.stats() })}\n`,
  );
  await desk.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
