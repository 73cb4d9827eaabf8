/**
 * The built-in vocabulary of offence names: a file's own categories → Blotter's types, as the
 * proposal's value map (`typeMap`). UCR and NIBRS offence names and the wordings city portals
 * use ("Larceny Theft", "Theft From Vehicle", "Aggravated Assault", "Breaking & Entering",
 * "Criminal Damage", "Motor Vehicle Theft"…) land on the API's standard types, so a city's 50
 * categories do not become 50 types in the filter bar. The homicide group (murder, manslaughter)
 * becomes one `Homicide`, as the proposal names a file of homicides (propose.ts `FILE_TYPES`).
 *
 * What it cannot place stays the file's own category (the filter shows it under "More types"):
 * never the API's `Other`, which is the API's own type. The file's category is kept as each
 * incident's `subtype` whatever the map says (apply.ts), so nothing is lost by placing it.
 *
 * The rules are data: read in order, the first whose pattern matches the category's words decides;
 * `null` keeps the category (a sex offence is not an assault, lost property is not a theft).
 */
import { CRIME_TYPES } from '../../../../src-shared/crimeTypes';

/** A rule: the words it matches (lower case, punctuation read as spaces) → the type, or null to keep. */
export type VocabularyRule = readonly [pattern: RegExp, type: string | null];

export const VOCABULARY: readonly VocabularyRule[] = [
  // Not offences of the kind their words suggest: kept as the file has them.
  [/\bnon ?criminal|\bnot arson|\bfalse (report|alarm)|\blost\b|\bfound\b|\brecover/, null],
  [/\bstolen property|\bidentity theft|\bresist|\bburglar s tools|\bburglars tools/, null],
  [/\bsex|\brape\b|\bsodomy|\bfondl|\bindecen|\bincest|\bmolest/, null],
  [/\bsuicide|\bdeath invest|\bmissing|\brunaway|\btraffic collision|\bhit and run|\baccident/, null],
  // The homicide group (NIBRS 09A–C; Chicago's HOMICIDE, SF's Homicide, "Murder").
  [/\bhomicide|\bmurder|\bmanslaughter/, 'Homicide'],
  [
    /\bshooting|\bshots? fired|\bshotspotter|\bshot spotter|\bdischarg\w* (of )?(a )?(firearm|weapon|gun)/,
    'Shooting',
  ],
  [/\brobber|\bcarjack|\bstrong ?arm|\bhold ?up\b|\bmugging/, 'Robbery'],
  [/\bburglar|\bbreaking (and )?entering|\bb e\b|\bbreak ?in\b|\bhousebreak/, 'Burglary'],
  [/\barson|\bincendiar/, 'Arson'],
  [
    /\bvandal|\bcriminal (damage|mischief)|\bmalicious mischief|\bgraffiti|\bdestruction|\bdamage to( \w+)? property|\bproperty damage/,
    'Vandalism',
  ],
  [
    /\btheft|\bthefts\b|\blarcen|\bshopli(f|ft)\w*|\bpocket ?pick|\bpick ?pocket|\bpurse snatch|\bstolen (vehicle|auto|car|bicycle)|\bauto theft|\bunauthori[sz]ed use of (a )?(motor )?veh|\bsteal/,
    'Theft',
  ],
  [/\bassault|\bbattery|\bintimidation|\bmenacing|\bstabbing|\bdomestic violence/, 'Assault'],
  [/\barrest/, 'Arrest'],
];

/** A category's words: lower case, every run of punctuation or spaces one space. */
export function wordsOf(category: string): string {
  return category
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const STANDARD = new Map(CRIME_TYPES.map((t) => [t.toLowerCase(), t]));

/**
 * The type the vocabulary places a category in, or null when it cannot (the category stays as the
 * file has it). A category that is a standard type's name in another case (`THEFT`) is that type.
 */
export function typeForCategory(
  category: string,
  rules: readonly VocabularyRule[] = VOCABULARY,
): string | null {
  const words = wordsOf(category);
  if (words === '') return null;
  const standard = STANDARD.get(words);
  // The API's own `Other` is never proposed: a file's "Other" is its own category.
  if (standard !== undefined) return standard === 'Other' ? null : standard;
  for (const [pattern, type] of rules) if (pattern.test(words)) return type;
  return null;
}

/**
 * The proposed value map for a type column's categories: each one the vocabulary places under a
 * type other than its own text. Categories it cannot place are left out (they keep their text).
 */
export function proposeTypeMap(categories: readonly string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const c of categories) {
    const category = c.trim();
    if (category === '' || category.length > 200) continue;
    const type = typeForCategory(category);
    if (type !== null && type !== category) map[category] = type;
  }
  return map;
}
