/**
 * `npm run sim -- [--port N] [--seed S] [--keys FILE] [--now ISO] [--faults JSON] [--scale N|preset]
 * [--span-days D] [--evolve-every SECONDS]`. The first stdout line is `listening on <url>`; everything
 * else goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseKeysFile } from './keys';
import { startSimulator } from './simulator';
import { SCALES, type Scale } from './types';

function fail(message: string): never {
  console.error(`sim: ${message}`);
  process.exit(2);
}

function parseScale(text: string | undefined): Scale | undefined {
  if (text === undefined) return undefined;
  if (text in SCALES) return text as Scale;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    fail(`--scale must be a count or one of ${Object.keys(SCALES).join(', ')}`);
  return n;
}

function parseIntArg(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a non-negative integer`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      keys: { type: 'string' },
      now: { type: 'string' },
      faults: { type: 'string' },
      scale: { type: 'string' },
      'span-days': { type: 'string' },
      'evolve-every': { type: 'string' },
    },
    strict: true,
  });
  let keys;
  try {
    keys = values.keys === undefined ? undefined : parseKeysFile(readFileSync(values.keys, 'utf8'));
  } catch (e) {
    fail((e as Error).message);
  }
  let faults;
  try {
    faults = values.faults === undefined ? undefined : (JSON.parse(values.faults) as object);
  } catch {
    fail('--faults must be JSON, e.g. {"errorRate":0.05,"latencyMs":20}');
  }
  if (values.now !== undefined && !Number.isFinite(Date.parse(values.now)))
    fail('--now must be an ISO-8601 instant');
  const sim = await startSimulator({
    port: parseIntArg('port', values.port),
    seed: parseIntArg('seed', values.seed),
    keys,
    now: values.now,
    faults,
    scale: parseScale(values.scale),
    spanDays: parseIntArg('span-days', values['span-days']),
  });
  console.log(`listening on ${sim.url}`);
  console.error(
    `sim: ${sim.incidentCount} incidents generated in ${Math.round(sim.generationMs)} ms; ` +
      `clock ${sim.clock.now().toISOString()}; keys: ${sim.keys.map((k) => `${k.key} (${k.plan})`).join(', ')}`,
  );
  const every = parseIntArg('evolve-every', values['evolve-every']) ?? 60;
  const timer = every > 0 ? setInterval(() => sim.evolve(), every * 1000) : undefined;
  const stop = (): void => {
    if (timer) clearInterval(timer);
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
