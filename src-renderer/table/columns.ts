/**
 * The table's columns: what each shows, which sort it offers, which are shown by default, and the
 * pure rules of the column chooser (show or hide one, never the last; kept columns of imported
 * files — a beat, a district — as columns of their own, `attr:<name>`). Cell text is plain, so
 * the table measures it (columnWidths.ts) and nothing is cut.
 */
import type { SortKey } from '../../src-shared/incidentQueries';
import type { IncidentRow } from '../../src-shared/incidentQueries';
import { contains, type Shape } from '../../src-shared/geo';
import { localTimeText } from '../incident/timeText';

/** A row as the table reads it; `subtype` (the file's own category) where the engine gives one. */
export type TableRow = IncidentRow & { subtype?: string | null };

export type CellContext = {
  /** The saved areas, for the Area column. */
  areas: readonly { name: string; shape: Shape }[];
};

export type Column = {
  id: string;
  label: string;
  sortKey: SortKey | null;
  /** The cell's text ('' when the row has none). */
  text: (row: TableRow, ctx: CellContext) => string;
  /** Numbers: tabular figures, right-aligned. */
  numeric?: boolean;
};

const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' });

/** The weekday of a local wall time YYYY-MM-DDTHH:MM, in the user's locale ("Sat"). */
export function weekdayText(occurredLocal: string): string {
  const [y, m, d] = occurredLocal.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return '';
  return WEEKDAY.format(new Date(Date.UTC(y, m - 1, d)));
}

/** "API", or "Import" with the file's name. */
export function sourceText(row: Pick<IncidentRow, 'source' | 'importFile'>): string {
  if (row.source === 'api') return 'API';
  if (row.source === 'import') return row.importFile ? `Import: ${row.importFile}` : 'Import';
  return '';
}

/** The saved areas holding a point, by name ("Downtown, Mission"); '' when none does. */
export function areaNamesAt(areas: CellContext['areas'], lat: number, lon: number): string {
  return areas
    .filter((a) => contains(a.shape, lat, lon))
    .map((a) => a.name)
    .join(', ');
}

export const ATTRIBUTE_PREFIX = 'attr:';

export const BASE_COLUMNS: readonly Column[] = [
  { id: 'id', label: 'ID', sortKey: null, numeric: true, text: (r) => String(r.cdid) },
  {
    id: 'date',
    label: 'Local date and time',
    sortKey: 'date',
    text: (r) => localTimeText(r.occurredLocal, r.timezone, r.occurredUtc),
  },
  { id: 'weekday', label: 'Weekday', sortKey: null, text: (r) => weekdayText(r.occurredLocal) },
  { id: 'type', label: 'Type', sortKey: 'type', text: (r) => r.type },
  { id: 'subtype', label: 'Subtype', sortKey: null, text: (r) => r.subtype ?? '' },
  { id: 'address', label: 'Address', sortKey: 'address', text: (r) => r.address },
  { id: 'area', label: 'Area', sortKey: null, text: (r, ctx) => areaNamesAt(ctx.areas, r.lat, r.lon) },
  { id: 'source', label: 'Source', sortKey: null, text: sourceText },
  {
    id: 'distance',
    label: 'Distance',
    sortKey: 'distance',
    numeric: true,
    text: (r) => (r.distanceMi === null ? '—' : `${r.distanceMi.toFixed(2)} mi`),
  },
  { id: 'flags', label: 'Flags', sortKey: null, text: (r) => (r.removed ? 'Removed' : '') },
];

export const DEFAULT_COLUMNS: readonly string[] = ['date', 'weekday', 'type', 'address', 'distance', 'flags'];

/** The column of an imported file's kept field. */
export function attributeColumn(name: string): Column {
  return {
    id: `${ATTRIBUTE_PREFIX}${name}`,
    label: name,
    sortKey: null,
    text: (r) => r.attributes?.[name] ?? '',
  };
}

/** Every column the chooser offers: the base ones, then the kept fields seen or chosen, by name. */
export function allColumns(attributeNames: Iterable<string>, chosen: readonly string[]): Column[] {
  const names = new Set(attributeNames);
  for (const id of chosen) if (id.startsWith(ATTRIBUTE_PREFIX)) names.add(id.slice(ATTRIBUTE_PREFIX.length));
  const kept = [...names].sort((a, b) => a.localeCompare(b)).map(attributeColumn);
  return [...BASE_COLUMNS, ...kept];
}

/** The chosen columns in the chooser's order (unknown ids dropped); the defaults when none is left. */
export function shownColumns(all: readonly Column[], chosen: readonly string[]): Column[] {
  const shown = all.filter((c) => chosen.includes(c.id));
  return shown.length > 0 ? shown : all.filter((c) => DEFAULT_COLUMNS.includes(c.id));
}

/** Shows or hides a column; the last shown one stays (a table of no columns says nothing). */
export function toggleColumn(chosen: readonly string[], id: string): string[] {
  if (!chosen.includes(id)) return [...chosen, id];
  return chosen.length > 1 ? chosen.filter((c) => c !== id) : [...chosen];
}

/** The kept fields' names in a page of rows. */
export function attributeNamesOf(rows: Iterable<TableRow | undefined>): Set<string> {
  const names = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row?.attributes ?? {})) names.add(name);
  return names;
}
