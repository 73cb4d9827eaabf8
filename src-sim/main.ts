/**
 * `npm run sim -- [--port N] [--seed S] [--keys FILE] [--now ISO] [--faults JSON] [--scale N|preset]
 * [--span-days D] [--evolve-every SECONDS] [--search-distance degrees|great-circle]
 * [--since-mode exclusive|inclusive] [--max-radius-deg D] [--radius-clamp-mi R] [--help]`. The first stdout line is `listening on <url>`; everything
 * else goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseKeysFile } from './keys';
import { startSimulator } from './simulator';
import { SCALES, type Scale } from './types';

const USAGE = `Usage: npm run sim -- [options]

The Crime Incident Data API simulator on loopback. The first stdout line is "listening on <url>";
everything else goes to stderr.

Options:
  --port N               port to listen on (default: any free port)
  --seed S               random seed of the generated archive
  --keys FILE            the API keys it accepts (JSON; default: a demo key)
  --now ISO              the simulator's clock starts at this instant
  --faults JSON          injected faults, e.g. {"errorRate":0.05,"latencyMs":20}
  --scale N|PRESET       incidents to generate, or one of: ${Object.keys(SCALES).join(', ')}
  --span-days D          days of history to generate
  --evolve-every SECONDS amend, add and remove incidents this often (0: never; default 60)
  --search-distance M    how radius is measured: degrees (default) or great-circle
  --since-mode M         since means occurred strictly after (exclusive, default) or on/after (inclusive)
  --max-radius-deg D     a larger radius is a 400 (default 1)
  --radius-clamp-mi R    silently search at most R miles, whatever radius is asked (testing)
  -h, --help             print this help and exit
`;

function fail(message: string): never {
  console.error(`sim: ${message} (npm run sim -- --help for usage)`);
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

function parseChoice<T extends string>(
  name: string,
  text: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) fail(`--${name} must be one of ${allowed.join(', ')}`);
  return text as T;
}

function parsePositive(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} must be a positive number`);
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
      'search-distance': { type: 'string' },
      'since-mode': { type: 'string' },
      'max-radius-deg': { type: 'string' },
      'radius-clamp-mi': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
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
    searchDistance: parseChoice('search-distance', values['search-distance'], ['degrees', 'great-circle']),
    sinceMode: parseChoice('since-mode', values['since-mode'], ['exclusive', 'inclusive']),
    maxRadiusDeg: parsePositive('max-radius-deg', values['max-radius-deg']),
    radiusClampMi: parsePositive('radius-clamp-mi', values['radius-clamp-mi']),
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
