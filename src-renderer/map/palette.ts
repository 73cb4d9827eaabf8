/**
 * One colour per crime type, from Paul Tol's "muted" scheme (distinct for the common forms of
 * colour blindness, and readable on light and dark basemaps). Types the app does not know share a
 * neutral grey, so a new API type never steals a colour analysts have learned.
 */
import { CRIME_TYPES } from '../../src-shared/crimeTypes';

export const TYPE_COLOURS: Record<(typeof CRIME_TYPES)[number], string> = {
  Shooting: '#882255',
  Assault: '#CC6677',
  Robbery: '#AA4499',
  Burglary: '#332288',
  Theft: '#88CCEE',
  Arson: '#DDCC77',
  Vandalism: '#117733',
  Arrest: '#44AA99',
  Other: '#999933',
};
export const UNKNOWN_COLOUR = '#9E9E9E';

export function colourOf(type: string): string {
  return (TYPE_COLOURS as Record<string, string>)[type] ?? UNKNOWN_COLOUR;
}

export type LegendEntry = { type: string; colour: string; count: number; known: boolean };

/**
 * The legend's rows: the standard types in their fixed order, then any other type seen, by count.
 * Types with no incidents are kept (count 0) when `keepEmpty`, so the legend does not jump about.
 */
export function legendEntries(counts: Record<string, number>, keepEmpty = true): LegendEntry[] {
  const known = CRIME_TYPES.map((type) => ({
    type,
    colour: colourOf(type),
    count: counts[type] ?? 0,
    known: true,
  }));
  const others = Object.entries(counts)
    .filter(([type]) => !(CRIME_TYPES as readonly string[]).includes(type))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([type, count]) => ({ type, colour: UNKNOWN_COLOUR, count, known: false }));
  return [...known, ...others].filter((e) => keepEmpty || e.count > 0);
}

/** The colours of a points batch's type table, as an index-aligned array (for the canvas). */
export const coloursFor = (types: readonly string[]): string[] => types.map(colourOf);
