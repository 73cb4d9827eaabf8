/**
 * How a job's `types` filter is spelled on the wire. The spec lists the types as results spell them
 * (`Theft`), shows the filter's example in lower case, and says nothing of case-sensitivity. A
 * server may compare exactly as its data spell a type — then `theft` matches nothing, and a typed
 * job (decide.ts: a pile of more than 500 at one point is split by type) would come back empty and
 * look complete — or compare in lower case, or refuse a name it does not know (400).
 *
 * So a typed job is first asked with each type in every spelling (as the data spell it, lower,
 * upper and Title case: one of them is the server's whichever way it compares, and on a server that
 * ignores case they are the same type). A 400 asks the same job again as the data spell the types,
 * then in lower case; only when all three are refused does the runner treat a type as unknown to
 * the server (radiusGuard.ts, runner.ts). The spelling a server answered is kept per base URL
 * (`settings` key `apiTypes <base URL>`) and tried first from then on; a refusal alone never
 * changes it (a type the server does not know is refused in every spelling).
 */
import type { Db } from '../store/database';

export type TypesSpelling = 'every-case' | 'as-seen' | 'lower';

const ORDER: readonly TypesSpelling[] = ['every-case', 'as-seen', 'lower'];

const keyOf = (baseUrl: string): string => `apiTypes ${baseUrl}`;

/** The spelling this server answered last (every case until one is known). */
export function readTypesSpelling(db: Db, baseUrl: string): TypesSpelling {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(keyOf(baseUrl));
  const v = row?.value as TypesSpelling | undefined;
  return v && ORDER.includes(v) ? v : 'every-case';
}

/** The server answered a typed query spelled this way. */
export function learnTypesSpelling(db: Db, baseUrl: string, spelling: TypesSpelling): void {
  if (readTypesSpelling(db, baseUrl) === spelling) return;
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(keyOf(baseUrl), spelling);
}

/** The spelling to try after a 400 for `refused` (those not tried yet, in order); null: none left. */
export function nextTypesSpelling(tried: readonly TypesSpelling[]): TypesSpelling | null {
  return ORDER.find((s) => !tried.includes(s)) ?? null;
}

const title = (t: string): string =>
  t.toLowerCase().replace(/(^|[\s/-])(\p{L})/gu, (_, a, b) => a + b.toUpperCase());

/** The names sent for `types` in a spelling (duplicates dropped, order kept). */
export function spellTypes(types: readonly string[], spelling: TypesSpelling): string[] {
  const out = types.flatMap((t) =>
    spelling === 'lower'
      ? [t.toLowerCase()]
      : spelling === 'as-seen'
        ? [t]
        : [t, t.toLowerCase(), t.toUpperCase(), title(t)],
  );
  return [...new Set(out)];
}
