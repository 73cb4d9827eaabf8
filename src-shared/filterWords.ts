/**
 * The filter state in plain words, one sentence per filter, for the Export view, manifests and
 * the printed report: "Types: Theft, Assault", "Dates: 2025-04-11 to 2025-05-10 (last 30 days)".
 * Pure; the caller supplies the resolved date range and the names of saved areas.
 */
import { PRESET_DAYS, type DayRange, type FeatureFilter, type Filters } from './filters';
import { mondayFirst, WEEKDAY_NAMES } from './weekdays';

export type FilterWordsContext = {
  /** The date range the engine applied (the preset resolved), when known. */
  range?: DayRange | null;
  /** A saved area's name by id. */
  areaName?: (id: number) => string | undefined;
  /** A reference layer feature's name ("Beat 0111 (Beats)"). */
  featureName?: (feature: FeatureFilter) => string | undefined;
};

const hh = (h: number): string => `${String(h % 24).padStart(2, '0')}:00`;

function dates(filters: Filters, range: DayRange | null | undefined): string {
  const span = range?.from && range.to ? `${range.from} to ${range.to}` : null;
  if (filters.preset === 'all') return 'Dates: all dates the archive holds';
  if (filters.preset) {
    const days = PRESET_DAYS[filters.preset];
    return span ? `Dates: ${span} (last ${days} days)` : `Dates: the last ${days} days`;
  }
  if (filters.from && filters.to) return `Dates: ${filters.from} to ${filters.to}`;
  if (filters.from) return `Dates: from ${filters.from} on`;
  if (filters.to) return `Dates: up to ${filters.to}`;
  return 'Dates: all dates the archive holds';
}

function area(filters: Filters, name: FilterWordsContext['areaName']): string | null {
  const a = filters.area;
  if (!a) return null;
  if ('areaId' in a) return `Area: ${name?.(a.areaId) ?? `saved area ${a.areaId}`}`;
  if ('circle' in a) {
    const c = a.circle;
    return `Area: within ${c.radiusMi} mi of ${c.lat.toFixed(4)}, ${c.lon.toFixed(4)}`;
  }
  return `Area: inside a drawn shape with ${a.polygon.length} corners`;
}

/** "Within 1,000 ft of Lincoln Elementary (Schools)", "Inside Beat 0111 (Beats)". */
export function featureWords(f: FeatureFilter, name: string | undefined): string {
  const what = name ?? `feature ${f.featureId} of reference layer ${f.layerId}`;
  const m = f.bufferM ?? 0;
  if (m <= 0) return `Inside ${what}`;
  const distance =
    f.unit === 'ft'
      ? `${Math.round(m / 0.3048).toLocaleString('en-US')} ft`
      : `${Math.round(m).toLocaleString('en-US')} m`;
  return `Within ${distance} of ${what}`;
}

export function filterWords(filters: Filters, context: FilterWordsContext = {}): string[] {
  const words: string[] = [];
  words.push(filters.types && filters.types.length > 0 ? `Types: ${filters.types.join(', ')}` : 'Types: all');
  words.push(dates(filters, context.range));
  if (filters.hours) {
    const [start, end] = filters.hours;
    if (!(start === end % 24 || (start === 0 && end === 24)))
      words.push(`Hours: ${hh(start)} to ${hh(end)} local time (before ${hh(end)})`);
  }
  if (filters.weekdays && filters.weekdays.length > 0 && filters.weekdays.length < 7) {
    const names = [...filters.weekdays].sort(mondayFirst).map((d) => WEEKDAY_NAMES[d] ?? String(d));
    words.push(`Weekdays: ${names.join(', ')}`);
  }
  if (filters.text && filters.text.trim()) words.push(`Text: ${filters.text.trim()}`);
  const where = area(filters, context.areaName);
  if (where) words.push(where);
  if (filters.feature)
    words.push(`Layer: ${featureWords(filters.feature, context.featureName?.(filters.feature))}`);
  if (filters.focus) words.push(`Within: ${filters.focus.label}`);
  words.push(
    filters.includeRemoved
      ? 'Incidents the API has since removed are included'
      : 'Incidents the API has since removed are left out',
  );
  return words;
}
