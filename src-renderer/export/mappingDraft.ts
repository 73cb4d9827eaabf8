/**
 * The mapping editor's state: every field as the form holds it (a column name or '' for none), from
 * the engine's proposal, and back to a ColumnMapping — or the fields still to choose before the file
 * can be previewed through it.
 */
import { ColumnMapping, type DateStyle } from '../../src-shared/importMapping';
import type { ImportInspection } from '../../src-shared/importMappingCalls';

export type Draft = {
  name: string;
  id: string;
  type: string;
  /** The file's codes → a type ('' keeps the code as the type). */
  typeMap: Record<string, string>;
  address: string;
  date: string;
  time: string;
  dateStyle: DateStyle;
  location: 'latlon' | 'xy';
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
    typeMap: { ...(p.typeMap ?? {}) },
    address: p.address ?? '',
    date: p.date ?? '',
    time: p.time ?? '',
    dateStyle: p.dateStyle ?? 'auto',
    location: loc?.kind ?? 'xy',
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
  const loc = d.location === 'latlon' ? [d.lat, d.lon] : [d.x, d.y];
  return new Set([d.id, d.type, d.address, d.date, d.time, d.description, ...loc].filter((c) => c !== ''));
}

export type DraftResult = { mapping: ColumnMapping } | { missing: string[] };

export function mappingOf(d: Draft): DraftResult {
  const missing: string[] = [];
  if (d.name.trim() === '') missing.push('a name for the mapping');
  if (d.type === '') missing.push('the type (offence) column');
  if (d.date === '') missing.push('the date column');
  if (d.location === 'latlon' && (d.lat === '' || d.lon === ''))
    missing.push('the latitude and longitude columns');
  if (d.location === 'xy' && (d.x === '' || d.y === '')) missing.push('the X and Y columns');
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
    type: d.type,
    ...(Object.keys(typeMap).length > 0 ? { typeMap } : {}),
    ...(d.address ? { address: d.address } : {}),
    date: d.date,
    ...(d.time ? { time: d.time } : {}),
    dateStyle: d.dateStyle,
    location:
      d.location === 'latlon'
        ? { kind: 'latlon', lat: d.lat, lon: d.lon }
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
