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
 * the server (radiusGuard.ts, runner.ts). The spelling a server answered is kept in its profile
 * (serverProfile.ts `typesSpelling`) and tried first from then on; a refusal alone never changes
 * it (a type the server does not know is refused in every spelling).
 */

export type TypesSpelling = 'every-case' | 'as-seen' | 'lower';

const ORDER: readonly TypesSpelling[] = ['every-case', 'as-seen', 'lower'];

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
