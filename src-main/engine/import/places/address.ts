/**
 * A records system's location text → what the locator looks up: a house or block number on a
 * street, or an intersection of two streets. Streets are normalised the USPS way (Publication 28,
 * appendices B and C): directions and street suffixes to their standard abbreviations, so
 * "North Wabash Avenue", "N WABASH AV" and "N. Wabash Ave." are one street.
 *
 * Shapes read: "000XX N WABASH AVE" (Chicago: the hundred block with its tens masked), "12XX BLOCK
 * OF 3RD AVE", "1200 BLOCK OF N STACK ST", "800 ELLIOTT AVE", "1234 N Main Street", and
 * intersections "N VIRGINIA ST/N MCCARRAN BL", "A ST & B AVE", "A ST AND B AVE", "A ST AT B AVE".
 */

export type ParsedAddress =
  | {
      kind: 'number';
      /** The normalised street: pre-direction, name, suffix, post-direction. */
      street: string;
      /** The house number, or for a block its middle (a block's number + 50). */
      number: number;
      /** The hundred block the number falls in (1234 → 1200). */
      block: number;
      /** Whether the text named only the block (000XX, "BLOCK OF", a round hundred). */
      isBlock: boolean;
    }
  | { kind: 'intersection'; streets: [string, string] };

const DIRECTIONS: Record<string, string> = {
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
  NORTHEAST: 'NE',
  NORTHWEST: 'NW',
  SOUTHEAST: 'SE',
  SOUTHWEST: 'SW',
  N: 'N',
  S: 'S',
  E: 'E',
  W: 'W',
  NE: 'NE',
  NW: 'NW',
  SE: 'SE',
  SW: 'SW',
};

/** USPS Publication 28, appendix C1: common spellings → the standard suffix abbreviation. */
const SUFFIXES: Record<string, string> = {};
const SUFFIX_LIST: [string, ...string[]][] = [
  ['ALY', 'ALLEY', 'ALLEE', 'ALLY'],
  ['AVE', 'AV', 'AVEN', 'AVENU', 'AVENUE', 'AVN', 'AVNUE'],
  ['BLVD', 'BL', 'BOUL', 'BOULEVARD', 'BOULV'],
  ['BR', 'BRNCH', 'BRANCH'],
  ['BRG', 'BRDGE', 'BRIDGE'],
  ['BYP', 'BYPA', 'BYPAS', 'BYPASS', 'BYPS'],
  ['CIR', 'CIRC', 'CIRCL', 'CIRCLE', 'CRCL', 'CRCLE'],
  ['CT', 'COURT', 'CRT'],
  ['CTR', 'CEN', 'CENT', 'CENTER', 'CENTR', 'CENTRE', 'CNTER', 'CNTR'],
  ['CV', 'COVE'],
  ['CRES', 'CRESCENT', 'CRSENT', 'CRSNT'],
  ['XING', 'CROSSING', 'CRSSNG'],
  ['DR', 'DRIV', 'DRIVE', 'DRV'],
  ['EXPY', 'EXP', 'EXPR', 'EXPRESS', 'EXPRESSWAY', 'EXPW'],
  ['EXT', 'EXTENSION', 'EXTN', 'EXTNSN'],
  ['FWY', 'FREEWAY', 'FREEWY', 'FRWAY', 'FRWY'],
  ['GDNS', 'GARDENS', 'GARDN', 'GRDEN', 'GRDN'],
  ['GRN', 'GREEN'],
  ['HTS', 'HT', 'HEIGHTS'],
  ['HWY', 'HIGHWAY', 'HIGHWY', 'HIWAY', 'HIWY', 'HWAY'],
  ['HL', 'HILL'],
  ['HOLW', 'HOLLOW', 'HLLW', 'HOLWS'],
  ['LN', 'LANE'],
  ['LOOP', 'LOOPS'],
  ['MALL'],
  ['MNR', 'MANOR'],
  ['PARK', 'PRK', 'PARKS'],
  ['PKWY', 'PARKWAY', 'PARKWY', 'PKWAY', 'PKY', 'PARKWAYS', 'PKWYS'],
  ['PASS'],
  ['PATH', 'PATHS'],
  ['PIKE', 'PIKES'],
  ['PL', 'PLACE'],
  ['PLZ', 'PLAZA', 'PLZA'],
  ['PT', 'POINT'],
  ['RD', 'ROAD'],
  ['RDG', 'RDGE', 'RIDGE'],
  ['ROW'],
  ['RUN'],
  ['SQ', 'SQR', 'SQRE', 'SQU', 'SQUARE'],
  ['ST', 'STREET', 'STRT', 'STR'],
  ['TER', 'TERR', 'TERRACE'],
  ['TRCE', 'TRACE', 'TRACES'],
  ['TRL', 'TRAIL', 'TRAILS', 'TRLS'],
  ['TPKE', 'TURNPIKE', 'TRNPK', 'TURNPK'],
  ['VW', 'VIEW'],
  ['VLG', 'VILLAGE', 'VILL', 'VILLAG', 'VILLG'],
  ['WALK', 'WALKS'],
  ['WAY', 'WY'],
];
for (const [std, ...others] of SUFFIX_LIST) {
  SUFFIXES[std] = std;
  for (const o of others) SUFFIXES[o] = std;
}

const SPLIT = /\s+/;

/** A street name → its normalised key ("North Wabash Avenue" → "N WABASH AVE"); '' when empty. */
export function normalizeStreet(text: string): string {
  const words = text
    .toUpperCase()
    .replace(/[.,#'"]/g, ' ')
    .trim()
    .split(SPLIT)
    .filter((w) => w !== '');
  if (words.length === 0) return '';
  const out = words.slice();
  // A leading direction (never the whole name: "N" alone, "EAST ST" keep their word).
  if (out.length > 2 || (out.length === 2 && SUFFIXES[out[1] as string] === undefined)) {
    const d = DIRECTIONS[out[0] as string];
    if (d !== undefined) out[0] = d;
  }
  // A trailing direction after a suffix ("EMMET ST N", "5TH STREET SOUTHWEST").
  let last = out.length - 1;
  if (last >= 2) {
    const d = DIRECTIONS[out[last] as string];
    if (d !== undefined && SUFFIXES[out[last - 1] as string] !== undefined) {
      out[last] = d;
      last--;
    }
  }
  // The suffix: the last word before any post-direction, when a name precedes it.
  if (last >= 1) {
    const s = SUFFIXES[out[last] as string];
    if (s !== undefined) out[last] = s;
  }
  return out.join(' ');
}

const INTERSECTION = /\s*(?:\/|&|\bAND\b|\bAT\b|@)\s*/;
/** "000XX", "12XX", "1XX" (the tens and units masked), or plain digits with an optional half/letter. */
const NUMBER = /^(\d+)(X+)?(?:-?[A-Z]|\s*1\/2)?$/;

/** A location text → a number on a street, an intersection, or null when neither can be read. */
export function parseAddress(text: string): ParsedAddress | null {
  const t = text.toUpperCase().replace(/\s+/g, ' ').trim();
  if (t === '') return null;
  if (INTERSECTION.test(t)) {
    const parts = t.split(INTERSECTION).map((p) => normalizeStreet(stripNumber(p)));
    if (parts.length === 2 && parts[0] && parts[1])
      return { kind: 'intersection', streets: [parts[0], parts[1]] };
    return null;
  }
  const m = /^([0-9X]+(?:-?[A-Z])?)\s+(?:BLOCK\s+(?:OF\s+)?|BLK\s+(?:OF\s+)?)?(.+)$/.exec(t);
  if (!m) return null;
  const n = NUMBER.exec(m[1] as string);
  if (!n) return null;
  const digits = n[1] as string;
  const masked = n[2] ?? '';
  const street = normalizeStreet(m[2] as string);
  if (street === '') return null;
  const value = Number(digits) * 10 ** masked.length;
  const block = Math.floor(value / 100) * 100;
  const namedBlock = masked !== '' || /\bBL(?:OC)?K\b/.test(t.slice(0, t.indexOf(m[2] as string)));
  const isBlock = namedBlock || value % 100 === 0;
  return { kind: 'number', street, number: isBlock ? block + 50 : value, block, isBlock };
}

/** "1200 N STATE ST" as one side of an intersection: the number dropped. */
function stripNumber(part: string): string {
  return part.replace(/^[0-9X]+\s+(?:BLOCK\s+(?:OF\s+)?)?/, '');
}
