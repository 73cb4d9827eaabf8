/**
 * The offline gazetteer: US cities and ZIP codes bundled with Blotter (a lazily loaded chunk, so
 * the first search or the map's place labels pay for it, not start-up). Nothing goes online.
 *
 *   const places = await searchPlaces('springfield, il');   // [{ label, kind, lat, lon, state }]
 */
import { parseGazetteer, type Gazetteer } from './parse';
import { searchGazetteer, type Place } from './search';

export type { Gazetteer } from './parse';
export type { Place } from './search';

let loading: Promise<Gazetteer> | null = null;

export function loadGazetteer(): Promise<Gazetteer> {
  loading ??= import('./data/us-places.tsv?raw').then((m) => parseGazetteer(m.default));
  loading.catch(() => (loading = null));
  return loading;
}

/** Cities and ZIP codes matching what a person typed, best first (at most `limit`). */
export async function searchPlaces(query: string, limit = 10): Promise<Place[]> {
  if (!query.trim()) return [];
  return searchGazetteer(await loadGazetteer(), query, limit);
}
