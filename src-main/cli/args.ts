/**
 * Command-line parsing: `blotter <command> [WORD...] [--flag value]...`, each flag checked with a
 * one-line message that says what is wrong and what is expected. Pure; run.ts turns UsageError into
 * exit 2.
 */
import { dayNumber } from '../../src-shared/filters';
import { shapeProblems, type Shape } from '../../src-shared/geo';
import { PlanId } from '../../src-shared/plans';

export class UsageError extends Error {
  override name = 'UsageError';
}

export type Parsed = {
  command: string;
  /** Words that are not flags (a subcommand, an id, a file), in order. */
  words: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
};

export type FlagSpec = {
  values: readonly string[];
  booleans: readonly string[];
  /** How many words (not flags) the command takes; default none. */
  words?: number;
};

/** Splits argv into a command, its words, flags with values (repeatable) and boolean flags. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const [command = '', ...rest] = argv;
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (!arg.startsWith('--') || arg === '-') {
      if (words.length >= (spec.words ?? 0))
        throw new UsageError(`Unexpected argument "${arg}". Run with --help for usage.`);
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (spec.booleans.includes(name)) {
      if (eq > 0) throw new UsageError(`--${name} takes no value.`);
      flags.add(name);
      continue;
    }
    if (!spec.values.includes(name))
      throw new UsageError(`Unknown option --${name} for "${command}". Run with --help for usage.`);
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--')))
      throw new UsageError(`--${name} needs a value.`);
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return { command, words, values, flags };
}

export function one(p: Parsed, name: string, required: true): string;
export function one(p: Parsed, name: string, required?: false): string | undefined;
export function one(p: Parsed, name: string, required = false): string | undefined {
  const v = p.values.get(name);
  if (!v || v.length === 0) {
    if (required) throw new UsageError(`--${name} is required.`);
    return undefined;
  }
  if (v.length > 1) throw new UsageError(`--${name} may be given only once.`);
  return v[0];
}

/** `LAT,LON,RADIUS_MI` → a ground circle (`flag` names the option in the message). */
export function parseArea(text: string, flag = 'area'): Extract<Shape, { kind: 'circle' }> {
  const parts = text.split(',').map((s) => s.trim());
  const nums = parts.map(Number);
  if (parts.length !== 3 || parts.some((s) => s === '') || nums.some((n) => !Number.isFinite(n))) {
    throw new UsageError(
      `--${flag} "${text}" must be "LAT,LON,RADIUS_MI", e.g. --${flag} "41.8781,-87.6298,1.5".`,
    );
  }
  const shape = {
    kind: 'circle' as const,
    lat: nums[0] as number,
    lon: nums[1] as number,
    radiusMi: nums[2] as number,
  };
  const problems = shapeProblems(shape);
  if (problems.length > 0) throw new UsageError(`--${flag} "${text}": ${problems.join(' ')}`);
  return shape;
}

export function parsePlan(text: string): PlanId {
  const r = PlanId.safeParse(text);
  if (!r.success) throw new UsageError(`--plan must be one of ${PlanId.options.join(', ')} (got "${text}").`);
  return r.data;
}

export function parsePositiveInt(name: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got "${text}").`);
  }
  return Number(text);
}

export function parseDayFlag(name: string, text: string): string {
  if (Number.isNaN(dayNumber(text)))
    throw new UsageError(`--${name} must be a real date written YYYY-MM-DD (got "${text}").`);
  return text;
}

export function parseBaseUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(
      `--base-url "${text}" is not a URL; give the full address, e.g. https://api.example.com.`,
    );
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new UsageError('--base-url must start with https:// or http://.');
  if (u.search || u.hash) throw new UsageError('--base-url may not contain a query or fragment.');
  return text.replace(/\/+$/, '');
}

/** A positive whole-number id, e.g. an area's. */
export function parseId(what: string, text: string | undefined): number {
  if (text === undefined) throw new UsageError(`Give the ${what}.`);
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`The ${what} must be a whole number from 1 (got "${text}").`);
  return Number(text);
}

export function parseTypes(text: string): string[] {
  const types = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (types.length === 0)
    throw new UsageError('--types needs at least one type, e.g. --types theft,robbery.');
  return types;
}
