/**
 * The mapping editor's state: every field as the form holds it (a column name or '' for none), from
 * the engine's proposal, and back to a ColumnMapping — or the fields still to choose before the file
 * can be previewed through it.
 */
import { ColumnMapping, type DateStyle } from '../../src-shared/importMapping';
import type { ImportInspection, ProposalCertainty } from '../../src-shared/importMappingCalls';

export type Draft = {
  name: string;
  id: string;
  type: string;
  /** The type from a column, or one type for every row (a file of shootings). */
  typeFrom: 'column' | 'constant';
  /** The type of every row when `typeFrom` is constant. */
  constantType: string;
  /** The file's codes → a type ('' keeps the code as the type). */
  typeMap: Record<string, string>;
  address: string;
  /** A block or house number column written before the address. */
  block: string;
  date: string;
  time: string;
  dateStyle: DateStyle;
  /** `none`: the file has no coordinates; its rows import as unplaced, placed from the address. */
  location: 'latlon' | 'xy' | 'none';
  lat: string;
  lon: string;
  x: string;
  y: string;
  /** An EPSG code of the bundled list, or `wkt` (a pasted .prj). */
  system: string;
  wkt: string;
  description: string;
  keep: string[];
};

export function draftOf(inspection: ImportInspection): Draft {
  const p = inspection.proposal;
  const loc = p.location;
  return {
    name: p.name ?? '',
    id: p.id ?? '',
    type: p.type ?? '',
    typeFrom: p.type === undefined && p.constantType !== undefined ? 'constant' : 'column',
    constantType: p.constantType ?? '',
    typeMap: { ...(p.typeMap ?? {}) },
    address: p.address ?? '',
    block: p.block ?? '',
    date: p.date ?? '',
    time: p.time ?? '',
    dateStyle: p.dateStyle ?? 'auto',
    location: loc?.kind === 'latlon' ? 'latlon' : loc?.kind === 'none' ? 'none' : 'xy',
    lat: loc?.kind === 'latlon' ? loc.lat : '',
    lon: loc?.kind === 'latlon' ? loc.lon : '',
    x: loc?.kind === 'xy' ? loc.x : '',
    y: loc?.kind === 'xy' ? loc.y : '',
    system:
      loc?.kind === 'xy'
        ? loc.wkt !== undefined
          ? 'wkt'
          : String(loc.epsg ?? inspection.zones.find((z) => z.fits)?.epsg ?? '')
        : String(inspection.zones.find((z) => z.fits)?.epsg ?? ''),
    wkt: loc?.kind === 'xy' ? (loc.wkt ?? '') : '',
    description: p.description ?? '',
    keep: [...(p.keep ?? [])],
  };
}

/** The columns a draft uses for Blotter's fields (the others may be kept as attributes). */
export function usedColumns(d: Draft): Set<string> {
  const loc = d.location === 'latlon' ? [d.lat, d.lon] : d.location === 'xy' ? [d.x, d.y] : [];
  const type = d.typeFrom === 'column' ? d.type : '';
  return new Set(
    [d.id, type, d.address, d.block, d.date, d.time, d.description, ...loc].filter((c) => c !== ''),
  );
}

export type DraftResult = { mapping: ColumnMapping } | { missing: string[] };

export function mappingOf(d: Draft): DraftResult {
  const missing: string[] = [];
  if (d.name.trim() === '') missing.push('a name for the mapping');
  if (d.typeFrom === 'column' && d.type === '') missing.push('the type (offence) column');
  if (d.typeFrom === 'constant' && d.constantType.trim() === '') missing.push('the type of every row');
  if (d.date === '') missing.push('the date column');
  if (d.location === 'latlon' && (d.lat === '' || d.lon === ''))
    missing.push('the latitude and longitude columns');
  if (d.location === 'xy' && (d.x === '' || d.y === '')) missing.push('the X and Y columns');
  if (d.location === 'none' && d.address === '' && d.block === '')
    missing.push('the address column (the rows are placed from it)');
  if (d.location === 'xy' && d.system === 'wkt' && d.wkt.trim().length < 10)
    missing.push('the .prj or WKT text');
  if (d.location === 'xy' && d.system !== 'wkt' && !/^\d+$/.test(d.system))
    missing.push('the coordinate system');
  if (missing.length > 0) return { missing };
  const typeMap = Object.fromEntries(Object.entries(d.typeMap).filter(([, v]) => v.trim() !== ''));
  const used = usedColumns(d);
  const parsed = ColumnMapping.safeParse({
    name: d.name.trim(),
    ...(d.id ? { id: d.id } : {}),
    ...(d.typeFrom === 'column'
      ? { type: d.type, ...(Object.keys(typeMap).length > 0 ? { typeMap } : {}) }
      : { constantType: d.constantType.trim() }),
    ...(d.address ? { address: d.address } : {}),
    ...(d.block ? { block: d.block } : {}),
    date: d.date,
    ...(d.time ? { time: d.time } : {}),
    dateStyle: d.dateStyle,
    location:
      d.location === 'latlon'
        ? { kind: 'latlon', lat: d.lat, lon: d.lon }
        : d.location === 'none'
          ? { kind: 'none' }
          : {
              kind: 'xy',
              x: d.x,
              y: d.y,
              ...(d.system === 'wkt' ? { wkt: d.wkt.trim() } : { epsg: Number(d.system) }),
            },
    ...(d.description ? { description: d.description } : {}),
    keep: d.keep.filter((c) => !used.has(c)),
  });
  return parsed.success
    ? { mapping: parsed.data }
    : { missing: parsed.error.issues.map((i) => `${i.path.join('.') || 'mapping'}: ${i.message}`) };
}

/**
 * The control the editor opens on: the first field the proposal is not sure of (in the page's
 * order: id, type, address, date, location), as the draft field its control edits; null when it
 * is sure of them all (or the mapping is a saved one).
 */
export function firstUnsure(
  certainty: readonly ProposalCertainty[] | undefined,
  d: Draft,
): keyof Draft | null {
  const order: ProposalCertainty['field'][] = ['id', 'type', 'address', 'date', 'location'];
  // An address is optional: a file without one leaves nothing to check there.
  const unsure = order.find((f) =>
    certainty?.some((c) => c.field === f && (c.level === 'guess' || (c.level === 'none' && f !== 'address'))),
  );
  if (unsure === undefined) return null;
  if (unsure === 'type') return d.typeFrom === 'constant' ? 'constantType' : 'type';
  if (unsure === 'location') return d.location === 'latlon' ? 'lat' : d.location === 'xy' ? 'x' : 'location';
  return unsure;
}
