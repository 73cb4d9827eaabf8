/**
 * The app's filters as flags — one parser for every command that filters (`export`, `analyze`,
 * `layers count`), so a filter means the same here as on the map (src-shared/filters.ts).
 * `filterFlags(p)` checks the flags at once (a bad one is exit 2 before any engine starts) and
 * answers a step that finishes the filter in the command's session: `--layer N --feature NAME
 * [--buffer-ft D | --buffer-m D]` names a reference layer and one of its features, which only the
 * engine can turn into ids (the filter state's `feature`).
 */
import type { Filters, FeatureFilter } from '../../src-shared/filters';
import { DatePreset } from '../../src-shared/filters';
import type { LayerView } from '../../src-shared/layerCalls';
import { polygonOf } from './areasCommand';
import { one, parseArea, parseDayFlag, parseId, parseTypes, UsageError, type Parsed } from './args';
import { CallFailure } from './failure';
import type { Session } from './session';

/** The filter flags with a value (`--include-removed` is the one boolean). */
export const FILTER_FLAGS = [
  'types',
  'from',
  'to',
  'preset',
  'hours',
  'weekdays',
  'text',
  'area',
  'area-id',
  'polygon',
  'layer',
  'feature',
  'buffer-ft',
  'buffer-m',
] as const;

/** The app's filter state for the filter flags, but the feature (a name until a session reads it). */
export function exportFilters(p: Parsed): Filters {
  const typesText = one(p, 'types');
  const fromText = one(p, 'from');
  const toText = one(p, 'to');
  const presetText = one(p, 'preset');
  const hoursText = one(p, 'hours');
  const weekdaysText = one(p, 'weekdays');
  const text = one(p, 'text');
  const areaText = one(p, 'area');
  const areaIdText = one(p, 'area-id');
  const polygonFile = one(p, 'polygon');
  if ([areaText, areaIdText, polygonFile].filter((a) => a !== undefined).length > 1)
    throw new UsageError('Give one of --area, --area-id and --polygon.');
  if (presetText !== undefined && (fromText !== undefined || toText !== undefined))
    throw new UsageError('Give --preset or --from/--to, not both.');
  const filters: Filters = {
    ...(typesText ? { types: parseTypes(typesText) } : {}),
    ...(fromText ? { from: parseDayFlag('from', fromText) } : {}),
    ...(toText ? { to: parseDayFlag('to', toText) } : {}),
    ...(presetText ? { preset: parsePreset(presetText) } : {}),
    ...(hoursText ? { hours: parseHours(hoursText) } : {}),
    ...(weekdaysText ? { weekdays: parseWeekdays(weekdaysText) } : {}),
    ...(text ? { text } : {}),
    ...(areaText ? { area: { circle: toCircle(parseArea(areaText)) } } : {}),
    ...(areaIdText ? { area: { areaId: parseId('--area-id', areaIdText) } } : {}),
    ...(polygonFile ? { area: { polygon: polygonOf(polygonFile).points } } : {}),
    ...(p.flags.has('include-removed') ? { includeRemoved: true } : {}),
  };
  if (filters.from && filters.to && filters.from > filters.to)
    throw new UsageError('--from must not be after --to.');
  return filters;
}

/** A feature named on the command line, waiting for a session to find its ids. */
type FeatureChoice = { layer: string; feature: string; bufferM: number; unit: 'ft' | 'm' | undefined };

/**
 * The filter flags checked now; the returned step reads the named layer and feature in the
 * session (an unknown one is exit 2, naming it) and answers the whole filter state.
 */
export function filterFlags(p: Parsed): (s: Session) => Promise<Filters> {
  const filters = exportFilters(p);
  const chosen = featureChoice(p);
  return async (s) => (chosen ? { ...filters, feature: await featureOf(s, chosen) } : filters);
}

function featureChoice(p: Parsed): FeatureChoice | undefined {
  const layer = one(p, 'layer');
  const feature = one(p, 'feature');
  const { metres, unit } = distanceFlags(p);
  if (feature === undefined) {
    if (layer !== undefined || unit !== undefined)
      throw new UsageError(
        '--layer and --buffer-ft/--buffer-m filter by a feature: give --feature NAME too.',
      );
    return undefined;
  }
  if (layer === undefined) throw new UsageError('--feature needs --layer NAME|ID (the layer it belongs to).');
  return { layer, feature, bufferM: metres, unit };
}

/** `--buffer-ft D` or `--buffer-m D` (one of them; "1,000" reads as 1000) in metres; 0 when neither. */
export function distanceFlags(p: Parsed): { metres: number; unit: 'ft' | 'm' | undefined; given: number } {
  const ft = one(p, 'buffer-ft');
  const m = one(p, 'buffer-m');
  if (ft !== undefined && m !== undefined)
    throw new UsageError('Give the distance once: --buffer-ft or --buffer-m.');
  const text = ft ?? m;
  if (text === undefined) return { metres: 0, unit: undefined, given: 0 };
  const given = Number(text.replace(/,/g, ''));
  if (text.trim() === '' || !Number.isFinite(given) || given < 0)
    throw new UsageError(`--buffer-${ft !== undefined ? 'ft' : 'm'} must be a distance ≥ 0 (got "${text}").`);
  const metres = ft !== undefined ? given * 0.3048 : given;
  if (metres > 50_000) throw new UsageError('The distance may be at most 50 km.');
  return { metres, unit: ft !== undefined ? 'ft' : 'm', given };
}

/** A layer by id or by name (case-insensitive); the newest of that name. */
export async function layerOf(s: Session, text: string): Promise<LayerView> {
  const { layers } = await s.call('listLayers', {});
  const byId = /^\d+$/.test(text) ? layers.find((l) => l.id === Number(text)) : undefined;
  const layer = byId ?? [...layers].reverse().find((l) => l.name.toLowerCase() === text.toLowerCase());
  if (!layer)
    throw new CallFailure('not_found', `There is no reference layer "${text}" (blotter layers list).`);
  return layer;
}

/** The filter state's feature for a layer and feature named on the command line (names case-insensitive). */
async function featureOf(s: Session, chosen: FeatureChoice): Promise<FeatureFilter> {
  const layer = await layerOf(s, chosen.layer);
  const { features } = await s.call('getLayerFeatures', { layerId: layer.id });
  const wanted = chosen.feature.trim().toLowerCase();
  const feature = features.find((f) => f.name.trim().toLowerCase() === wanted);
  if (!feature) {
    const some = features.slice(0, 5).map((f) => `"${f.name}"`);
    throw new UsageError(
      `--feature: "${layer.name}" has no feature named "${chosen.feature}" (it has ${some.join(', ')}${features.length > 5 ? ', …' : ''}).`,
    );
  }
  return {
    layerId: layer.id,
    featureId: feature.id,
    ...(chosen.bufferM > 0 ? { bufferM: chosen.bufferM, unit: chosen.unit } : {}),
  };
}

function parsePreset(text: string): DatePreset {
  const r = DatePreset.safeParse(text);
  if (!r.success)
    throw new UsageError(`--preset must be one of ${DatePreset.options.join(', ')} (got "${text}").`);
  return r.data;
}

/** `START-END` local hours, END exclusive: 22-6 wraps past midnight (the app's hour filter). */
function parseHours(text: string): [number, number] {
  const m = /^(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  const start = Number(m?.[1]);
  const end = Number(m?.[2]);
  if (!m || start > 23 || end > 24)
    throw new UsageError(`--hours must be START-END in local hours, e.g. 22-6 (got "${text}").`);
  return [start, end];
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `sat,sun` (names, at least three letters) or `0,6` (Sunday 0) → the app's weekday numbers. */
function parseWeekdays(text: string): number[] {
  return text.split(',').map((w) => {
    const word = w.trim().toLowerCase();
    const day = /^[0-6]$/.test(word)
      ? Number(word)
      : WEEKDAYS.findIndex((name) => word.length >= 3 && name.startsWith(word));
    if (day < 0)
      throw new UsageError(`--weekdays takes day names or 0-6, e.g. --weekdays sat,sun (got "${w}").`);
    return day;
  });
}

const toCircle = ({ lat, lon, radiusMi }: { lat: number; lon: number; radiusMi: number }) => ({
  lat,
  lon,
  radiusMi,
});
