/**
 * Query-parameter parsing with the simulator's strict rules. Every failure is a message that begins
 * with the parameter's name; handlers collect them into one 400.
 */
import { CRIME_TYPES, type CrimeType } from '../../src-shared/crimeTypes';
import { ALL_TYPES_MASK } from '../data/query';
import { parseDay } from '../data/timeZones';
import { ApiError } from './respond';

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Reads parameters, gathering error messages instead of failing on the first. */
export class Params {
  readonly errors: string[] = [];

  constructor(private readonly q: URLSearchParams) {}

  raw(name: string): string | undefined {
    return this.q.get(name) ?? undefined;
  }

  fail(message: string): undefined {
    this.errors.push(message);
    return undefined;
  }

  /** A decimal number in [min, max] (plain decimal notation only: no exponent, hex or Infinity). */
  number(name: string, min: number, max: number, opts: { required: boolean; minExclusive?: boolean }) {
    const text = this.raw(name);
    if (text === undefined || text === '')
      return opts.required ? this.fail(`${name} is required`) : undefined;
    if (!DECIMAL.test(text)) return this.fail(`${name} must be a decimal number`);
    const v = Number(text);
    const low = opts.minExclusive ? v <= min : v < min;
    if (low || v > max) {
      return this.fail(
        `${name} must be ${opts.minExclusive ? 'greater than' : 'at least'} ${min} and at most ${max}`,
      );
    }
    return v;
  }

  /** An integer in [min, max], or `fallback` when absent. */
  integer(name: string, min: number, max: number, fallback: number): number | undefined {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text)) return this.fail(`${name} must be an integer from ${min} to ${max}`);
    const v = Number(text);
    if (v < min || v > max) return this.fail(`${name} must be an integer from ${min} to ${max}`);
    return v;
  }

  /** One of `allowed`, compared case-insensitively; returns the canonical spelling. */
  choice<T extends string>(name: string, allowed: readonly T[], fallback: T): T | undefined {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const hit = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
    return hit ?? this.fail(`${name} must be one of ${allowed.join(', ')}`);
  }

  /** Optional text that must match `pattern` and be at most `max` characters long. */
  matching(name: string, pattern: RegExp, max: number, what: string): string | undefined {
    const text = this.raw(name);
    if (text === undefined) return undefined;
    return text.length <= max && pattern.test(text)
      ? text
      : this.fail(`${name} must be ${what}, at most ${max} characters`);
  }

  /** A real calendar date `YYYY-MM-DD`, as a day number. */
  day(name: string): number | undefined {
    const text = this.raw(name);
    if (text === undefined) return undefined;
    return parseDay(text) ?? this.fail(`${name} must be a real date in YYYY-MM-DD format`);
  }

  /** Comma-separated crime types as a bit mask (bit i = CRIME_TYPES[i]); all types when absent. */
  types(name: string, lowerCaseOnly: boolean): number | undefined {
    const text = this.raw(name);
    if (text === undefined) return ALL_TYPES_MASK;
    let mask = 0;
    for (const item of text.split(',')) {
      const t = item.trim();
      const i = CRIME_TYPES.findIndex((c: CrimeType) =>
        lowerCaseOnly ? c.toLowerCase() === t : c.toLowerCase() === t.toLowerCase(),
      );
      if (i < 0) {
        const known = CRIME_TYPES.map((c) => (lowerCaseOnly ? c.toLowerCase() : c)).join(', ');
        return this.fail(`${name} has an unknown type ${JSON.stringify(t)}; known types: ${known}`);
      }
      mask |= 1 << i;
    }
    return mask;
  }

  /** An ISO-8601 date-time with a UTC offset (`Z` or `±HH:MM`), as an instant. */
  instant(name: string, required: boolean): number | undefined {
    const text = this.raw(name);
    if (text === undefined || text === '') return required ? this.fail(`${name} is required`) : undefined;
    const m =
      /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/.exec(
        text,
      );
    const ms = m ? Date.parse(text) : NaN;
    const dayOk = m ? parseDay(`${m[1]}-${m[2]}-${m[3]}`) !== null : false;
    const fieldsOk = m ? Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6] ?? 0) < 60 : false;
    if (!m || !dayOk || !fieldsOk || Number.isNaN(ms)) {
      return this.fail(
        `${name} must be an ISO-8601 date-time with a UTC offset, e.g. 2025-01-31T18:00:00-06:00`,
      );
    }
    return ms;
  }

  /** Throws the gathered errors as one 400, if any. */
  check(): void {
    if (this.errors.length > 0) throw new ApiError(400, this.errors);
  }

  /** `check()`, then the parsed values, all defined (a parser returns undefined only with an error). */
  done<T extends Record<string, unknown>>(values: T): { [K in keyof T]-?: NonNullable<T[K]> } {
    this.check();
    for (const [name, v] of Object.entries(values)) {
      if (v === undefined || v === null)
        throw new Error(`parameter ${name} parsed to nothing without an error`);
    }
    return values as { [K in keyof T]-?: NonNullable<T[K]> };
  }
}
