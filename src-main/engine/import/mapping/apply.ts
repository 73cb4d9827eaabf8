/**
 * A mapping applied to one record of another system's file: the record as Blotter's own fields
 * (what normalize.ts checks), or the column and what was expected there. Built once per file
 * (`mapper`), then one call per row — cheap enough for the check threads at 100k+ rows/s: no
 * regular expression per cell beyond the date reader's, one projection call per row.
 *
 * Identity (DESIGN.md): a Blotter export's `cdid` column is kept as the cdid; any other system's
 * ids live in their own namespace — the mapping's name and the external id — as a negative id
 * (`namespacedId`), which no API row can have, so they never collide with or reach the API.
 */
import type { ColumnMapping } from '../../../../src-shared/importMapping';
import { zoneAt } from '../../time/zoneAt';
import { readDateTime } from './dates';
import { pointText, POINT_EXPECTED, type PointText } from './pointText';
import { unprojector, zoneOf, type Unproject } from '../../geo/projection';

export type Mapped = {
  cdid: number;
  type: string;
  address: string;
  lat: number;
  lon: number;
  occurred_local: string;
  timezone: string;
  occurred_utc?: string;
  description?: string;
  /** The kept columns (attributes) as a JSON object, null when the row has none. */
  attributes: string | null;
  /** The file's own category (the type column's text, before the value map): the incident's subtype. */
  subtype?: string;
  external_id?: string;
  /**
   * The row has an address but no coordinates: why (its blank location columns). It is kept as
   * unplaced (engine/import/places), its time read in `UNPLACED_ZONE` until the preview settles its zone.
   */
  unplaced?: string;
};

/** An unplaced row's zone until the preview settles it (places/unplacedRows.ts). */
export const UNPLACED_ZONE = 'UTC';

export type MapProblem = { column: string; expected: string };

/**
 * An external id in its mapping's namespace → a stable negative whole number (53 bits): cyrb53, a
 * fast non-cryptographic hash of `namespace NUL id` (sha-256 cost ~2 µs a row, the mapped import's
 * largest share). At a million ids, the chance of any two meeting is about 1 in 10,000 per namespace.
 */
export function namespacedId(namespace: string, externalId: string): number {
  return namespaceOf(namespace)(externalId);
}

/**
 * `namespacedId` for one namespace: the hash's state after `namespace NUL` is worked out once, so
 * each row hashes only its own id (no joined string per row) — the same numbers.
 */
export function namespaceOf(namespace: string): (externalId: string) => number {
  let s1 = 0xdeadbeef;
  let s2 = 0x41c6ce57;
  const prefix = `${namespace}\u0000`;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    s1 = Math.imul(s1 ^ c, 2654435761);
    s2 = Math.imul(s2 ^ c, 1597334677);
  }
  return (externalId) => {
    let h1 = s1;
    let h2 = s2;
    for (let i = 0; i < externalId.length; i++) {
      const c = externalId.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return -(4294967296 * (2097151 & h2) + (h1 >>> 0) + 1);
  };
}

/**
 * A record without an id column is known by its content: every cell, in the file's column order.
 * Rows identical in every column are one record (a file exported twice, a row repeated); rows that
 * differ in any cell are never merged. A control character no cell of a CSV holds starts it, so it
 * never meets an id column's value in the same namespace.
 */
function contentKey(rec: Record<string, string>): string {
  let k = '\u0001';
  for (const v of Object.values(rec)) k += `${v ?? ''}\u0000`;
  return k;
}

const THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

const NO_PLACE = 'a location (0, 0 is how records systems write a row they could not place)';

export function mapper(
  mapping: ColumnMapping,
): (rec: Record<string, string>, rowNumber: number) => Mapped | MapProblem {
  const loc = mapping.location;
  const unproject: Unproject | null =
    loc.kind === 'xy'
      ? unprojector(loc.epsg !== undefined ? { epsg: loc.epsg } : { wkt: loc.wkt as string })
      : null;
  // A bundled zone's X/Y must fall inside its area of use (a degree of slack: a city on a zone's
  // edge): a zero X/Y, a file in another zone or in feet read as metres lands far outside it.
  const zone = loc.kind === 'xy' && loc.epsg !== undefined ? zoneOf(loc.epsg) : undefined;
  const [west, south, east, north] = zone ? zone.area : [-180, -90, 180, 90];
  const outsideZone = zone
    ? `X/Y inside ${zone.name}'s area (${south}° to ${north}° N, ${west}° to ${east}° E; check the zone and its unit)`
    : 'X/Y inside the chosen coordinate system’s area';
  if ((mapping.type === undefined) === (mapping.constantType === undefined))
    throw new Error(
      mapping.type === undefined
        ? 'give the type column, or one type for every row'
        : 'give the type column or one type for every row, not both',
    );
  const typeColumn = mapping.type ?? '';
  // One type for every row (a file of shootings): no cell is read for it.
  const constantType = mapping.constantType?.trim();
  if (constantType === '') throw new Error('the type for every row is blank');
  const keepsCdid = mapping.id !== undefined && mapping.id.trim().toLowerCase() === 'cdid';
  const idOf = namespaceOf(mapping.name);
  const typeMap = new Map(Object.entries(mapping.typeMap ?? {}).map(([k, v]) => [k.trim().toLowerCase(), v]));
  // A file has few distinct codes: each one's type is worked out once.
  const types = new Map<string, string>();
  const typeOf = (code: string): string => {
    let type = types.get(code);
    if (type === undefined) {
      type = typeMap.get(code.toLowerCase()) ?? code;
      if (types.size < 10_000) types.set(code, type);
    }
    return type;
  };
  // One column named as both coordinates holds the point as text (pointText.ts).
  const oneCell = loc.kind === 'latlon' ? loc.lat === loc.lon : loc.kind === 'xy' && loc.x === loc.y;
  const point = (rec: Record<string, string>, column: string): PointText | MapProblem => {
    const t = rec[column] ?? '';
    if (t.trim() === '') return { column, expected: `${POINT_EXPECTED}; the cell is blank` };
    return pointText(t) ?? { column, expected: POINT_EXPECTED };
  };
  const { address: street, block } = mapping;
  const addressOf = (rec: Record<string, string>): string => {
    const a = street !== undefined ? (rec[street] ?? '').trim() : '';
    if (block === undefined) return a;
    const b = (rec[block] ?? '').trim();
    return b === '' ? a : a === '' ? b : `${b} ${a}`;
  };
  // A row whose location cells are all blank (or 0, 0) but which has an address is unplaced, not bad.
  const placeColumns = loc.kind === 'latlon' ? [loc.lat, loc.lon] : loc.kind === 'xy' ? [loc.x, loc.y] : [];
  const firstPlaceColumn = placeColumns[0];
  const unplacedWhy = (rec: Record<string, string>): string | undefined => {
    // The usual row, at a number's parse: its first location cell holds something other than 0.
    if (firstPlaceColumn !== undefined) {
      const first = rec[firstPlaceColumn];
      if (first && Number(first) !== 0) return undefined;
    }
    const cells = placeColumns.map((c) => (rec[c] ?? '').trim());
    const blank = cells.every((c) => c === '');
    if (!blank && !(cells.length === 2 && cells.every((c) => Number(c) === 0))) return undefined;
    if (addressOf(rec) === '') return undefined;
    const cols = [...new Set(placeColumns)].join(', ');
    if (cols === '') return 'no coordinates (the file has no location columns)';
    return blank ? `no coordinates (${cols} blank)` : `no coordinates (${cols} are 0, 0)`;
  };
  const kept = mapping.keep.map((c) => ({ column: c, key: `${JSON.stringify(c)}:` }));
  const num = (rec: Record<string, string>, column: string, what: string): number | MapProblem => {
    const t = (rec[column] ?? '').trim();
    if (t === '') return { column, expected: `${what}; the cell is blank` };
    const n = Number(t);
    if (Number.isFinite(n)) return n;
    // A spreadsheet's number format writes thousands separators: "2,491,875.04".
    const grouped = THOUSANDS.test(t) ? Number(t.replace(/,/g, '')) : Number.NaN;
    return Number.isFinite(grouped) ? grouped : { column, expected: what };
  };
  return (rec) => {
    let cdid: number;
    let external: string | undefined;
    const idText = mapping.id !== undefined ? (rec[mapping.id] ?? '').trim() : '';
    if (keepsCdid) {
      cdid = Number(idText);
      if (!Number.isInteger(cdid) || cdid < 1)
        return { column: mapping.id as string, expected: 'a whole number ≥ 1 (a Blotter cdid)' };
    } else {
      if (mapping.id !== undefined && idText === '')
        return { column: mapping.id, expected: 'the record’s id' };
      if (mapping.id !== undefined) {
        external = idText;
        cdid = idOf(external);
      } else cdid = idOf(contentKey(rec));
    }
    let type: string;
    let subtype: string | undefined;
    if (constantType !== undefined) type = constantType;
    else {
      const code = (rec[typeColumn] ?? '').trim();
      if (code === '') return { column: typeColumn, expected: 'an offence code or type' };
      type = typeOf(code);
      if (type.length > 100) return { column: typeColumn, expected: 'a type of at most 100 characters' };
      if (code.length > 200) return { column: typeColumn, expected: 'a category of at most 200 characters' };
      subtype = code;
    }
    let lat: number;
    let lon: number;
    const unplaced = unplacedWhy(rec);
    if (unplaced !== undefined) [lat, lon] = [Number.NaN, Number.NaN];
    else if (loc.kind === 'latlon') {
      let a: number;
      let b: number;
      if (oneCell) {
        const p = point(rec, loc.lat);
        if (!('x' in p)) return p;
        [a, b] = [p.y, p.x];
      } else {
        const la = num(rec, loc.lat, 'a latitude in degrees (−90 to 90)');
        if (typeof la !== 'number') return la;
        const lo = num(rec, loc.lon, 'a longitude in degrees (−180 to 180)');
        if (typeof lo !== 'number') return lo;
        [a, b] = [la, lo];
      }
      if (Math.abs(a) > 90) return { column: loc.lat, expected: 'a latitude in degrees (−90 to 90)' };
      if (Math.abs(b) > 180) return { column: loc.lon, expected: 'a longitude in degrees (−180 to 180)' };
      // Records systems write 0, 0 for a row they could not place.
      if (a === 0 && b === 0) return { column: loc.lat, expected: NO_PLACE };
      [lat, lon] = [a, b];
    } else if (loc.kind === 'xy') {
      let x: number;
      let y: number;
      if (oneCell) {
        const p = point(rec, loc.x);
        if (!('x' in p)) return p;
        ({ x, y } = p);
      } else {
        const px = num(rec, loc.x, 'an X coordinate (a number in the chosen system)');
        if (typeof px !== 'number') return px;
        const py = num(rec, loc.y, 'a Y coordinate (a number in the chosen system)');
        if (typeof py !== 'number') return py;
        [x, y] = [px, py];
      }
      if (x === 0 && y === 0) return { column: loc.x, expected: NO_PLACE };
      ({ lat, lon } = (unproject as Unproject)(x, y));
      if (!(lat >= south - 1 && lat <= north + 1 && lon >= west - 1 && lon <= east + 1))
        return {
          column: loc.x,
          expected: `${outsideZone}; this row reads as ${lat.toFixed(4)}, ${lon.toFixed(4)}`,
        };
    } else
      // No location columns, and no address to place the row by.
      return {
        column: street ?? block ?? mapping.date,
        expected: 'an address (the file has no coordinates)',
      };
    const when = readDateTime(
      rec[mapping.date] ?? '',
      mapping.time !== undefined ? (rec[mapping.time] ?? '') : null,
      mapping.dateStyle,
    );
    if ('expected' in when)
      return {
        column: mapping.time !== undefined && /time/.test(when.expected) ? mapping.time : mapping.date,
        expected: when.expected,
      };
    const timezone = unplaced !== undefined ? UNPLACED_ZONE : zoneAt(lat, lon);
    let attributes: string | null = null;
    for (const { column, key } of kept) {
      const v = rec[column];
      if (v === undefined || v === '') continue;
      attributes = `${attributes === null ? '{' : `${attributes},`}${key}${JSON.stringify(v)}`;
    }
    if (attributes !== null) attributes += '}';
    const out: Mapped = {
      cdid,
      type,
      address: addressOf(rec),
      lat,
      lon,
      occurred_local: when.wall,
      timezone,
      attributes,
    };
    if (when.offsetMinutes !== null) {
      // An instant: the wall time is the incident's own zone's reading of it.
      const ms = Date.parse(`${when.wall}:00Z`) - when.offsetMinutes * 60_000;
      out.occurred_utc = new Date(ms).toISOString();
      out.occurred_local = wallIn(timezone, ms);
    }
    if (subtype !== undefined) out.subtype = subtype;
    if (mapping.description !== undefined && rec[mapping.description])
      out.description = rec[mapping.description];
    if (external !== undefined) out.external_id = external;
    if (unplaced !== undefined) out.unplaced = unplaced;
    return out;
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** An instant's wall time (YYYY-MM-DDTHH:MM) in an IANA zone. */
export function wallIn(zone: string, ms: number): string {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
