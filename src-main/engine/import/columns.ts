/**
 * Whether a file's columns (a CSV header, the first JSON record's fields) are ones Blotter reads:
 * cdid, type, lat, lon and a time (occurred_local + timezone, or date), under their names or
 * aliases (normalize.ts). When they are not, the file is refused once, naming what was expected
 * and what was found, instead of "cdid is missing" on every row. (Mapping other columns onto these
 * comes with the interchange work.)
 */
import type { ColumnMapping } from '../../../src-shared/importMapping';
import { FileProblem } from './fileProblem';
import { canonicalKey } from './normalize';

const REQUIRED = ['cdid', 'type', 'lat', 'lon'] as const;
const OPTIONAL = 'address, link, description, occurred_utc, first_seen, last_seen, removed';
/** Names listed in the message at most, each cut at NAME_CHARS (a header may be anything). */
const LISTED = 30;
const NAME_CHARS = 40;

/**
 * Columns a file may have (SQLite's own limit a table): a table of 100,000 columns is no incident
 * list, and its inspection alone was 21 MB of column names and values for the mapping editor.
 */
export const MAX_COLUMNS = 2_000;

/** Refuses a header of more than MAX_COLUMNS columns (a CSV header, a JSON record's fields). */
export function checkColumnCount(count: number, what: 'columns' | 'fields'): void {
  if (count > MAX_COLUMNS)
    throw new FileProblem(
      `${what === 'columns' ? 'The file has' : 'The first record has'} ${count.toLocaleString('en-US')} ${what}; at most ${MAX_COLUMNS.toLocaleString('en-US')} are read. Keep only the ${what} you need, and import it again.`,
    );
}

/** The message refusing these columns, or null when the required ones are all there. */
export function columnsProblem(found: readonly string[], what: 'columns' | 'fields'): string | null {
  const names = new Set(found.map(canonicalKey));
  const missing: string[] = REQUIRED.filter((k) => !names.has(k));
  const timed = names.has('date_raw') || (names.has('occurred_local') && names.has('timezone'));
  if (!timed) missing.push('a time (occurred_local and timezone, or date)');
  if (missing.length === 0) return null;
  const shown = found
    .slice(0, LISTED)
    .map((n) => {
      const clean = n.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
      return clean.length > NAME_CHARS ? `${clean.slice(0, NAME_CHARS)}…` : clean || '(blank)';
    })
    .join(', ');
  const more = found.length > LISTED ? ` and ${found.length - LISTED} more` : '';
  const where = what === 'columns' ? "This file's columns" : "The first record's fields";
  return (
    `${where} are not the ones Blotter reads. Expected: cdid (or id), type, lat, lon, and either ` +
    `occurred_local with timezone or date (MM/DD/YY HH:MM AM/PM); optional: ${OPTIONAL}. ` +
    `Found: ${shown || 'none'}${more}. Missing: ${missing.join(', ')}.`
  );
}

/** The columns a mapping names (as written in it). */
function mappedNames(mapping: ColumnMapping): string[] {
  const loc = mapping.location;
  return [
    mapping.id,
    mapping.type,
    mapping.address,
    mapping.block,
    mapping.date,
    mapping.time,
    mapping.description,
    ...(loc.kind === 'latlon' ? [loc.lat, loc.lon] : loc.kind === 'xy' ? [loc.x, loc.y] : []),
    ...mapping.keep,
  ].filter((c): c is string => c !== undefined);
}

const fold = (c: string) => c.trim().toLowerCase();

/**
 * The columns a mapping names that the file lacks (names compared trimmed and case-folded, as a
 * header shape is), as the message refusing the file; or null.
 */
export function mappedColumnsProblem(found: readonly string[], mapping: ColumnMapping): string | null {
  const have = new Set(found.map(fold));
  const missing = mappedNames(mapping).filter((c) => !have.has(fold(c)));
  return missing.length === 0
    ? null
    : `The mapping "${mapping.name}" names columns this file does not have: ${missing.join(', ')}.`;
}

/**
 * A CSV header as the reader keys its records: Blotter's names (canonical) or, mapped, the
 * mapping's own spelling of each column (the file's may differ in case and spaces around).
 */
export function headerOf(
  found: readonly string[],
  mapping: ColumnMapping | undefined,
  what: 'columns' | 'fields',
): string[] {
  checkColumnCount(found.length, what);
  const problem = mapping ? mappedColumnsProblem(found, mapping) : columnsProblem(found, what);
  if (problem) throw new FileProblem(problem);
  const keys = mapping ? found.map(mappedSpelling(mapping)) : found.map(canonicalKey);
  const twice = givenTwice(found, keys, mapping ? new Set(mappedNames(mapping)) : READ);
  if (twice) throw new FileProblem(twice(what));
  return keys;
}

/** The fields Blotter reads from its own columns (canonical names). */
const READ: ReadonlySet<string> = new Set([
  ...REQUIRED,
  'address',
  'link',
  'description',
  'date_raw',
  'occurred_local',
  'timezone',
  'occurred_utc',
  'first_seen',
  'last_seen',
  'removed',
  'subtype',
]);

/**
 * Two columns that give one field Blotter reads (`lat` and `LAT`, `cdid` and `id`, a mapped
 * column twice): the later one silently won, so a row could be placed by a column the analyst
 * never meant. The message names both, by position.
 */
function givenTwice(
  found: readonly string[],
  keys: readonly string[],
  read: ReadonlySet<string>,
): ((what: 'columns' | 'fields') => string) | null {
  const first = new Map<string, number>();
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if (!read.has(key)) continue;
    const at = first.get(key);
    if (at === undefined) {
      first.set(key, k);
      continue;
    }
    const name = (i: number) => JSON.stringify((found[i] as string).trim().slice(0, NAME_CHARS));
    return (what) =>
      what === 'columns'
        ? `The columns ${name(at)} (column ${at + 1}) and ${name(k)} (column ${k + 1}) both give ${key}; which one to read would be a guess. Remove or rename one, and import the file again.`
        : `The first record's fields ${name(at)} and ${name(k)} both give ${key}; which one to read would be a guess. Remove or rename one, and import the file again.`;
  }
  return null;
}

/** A file's column or field name → the mapping's spelling of it (names compared trimmed and case-folded). */
export function mappedSpelling(mapping: ColumnMapping): (name: string) => string {
  const spelled = new Map(mappedNames(mapping).map((c) => [fold(c), c]));
  return (c) => spelled.get(fold(c)) ?? c.trim();
}
