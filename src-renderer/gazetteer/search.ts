/**
 * Place search over the gazetteer: a ZIP code (or its first 3–4 digits), or a city name, optionally
 * with its state ("springfield, il", "Springfield IL"). Exact names first, then names that start
 * with the words typed, then names with a word that does; larger cities first within each.
 */
import { normalizeName, type Gazetteer } from './parse';

export type Place = {
  /** For a list: "Chicago, IL" or "60601 · Chicago, IL". Plain text. */
  label: string;
  kind: 'city' | 'zip';
  lat: number;
  lon: number;
  state: string;
};

export const STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH ' +
    'OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP FM MH PW'
  ).split(' '),
);

function splitState(query: string): { name: string; state: string | null } {
  const m = /^(.*?)[\s,]+([a-z]{2})\.?$/i.exec(query.trim());
  if (m?.[1] && m[2] && STATES.has(m[2].toUpperCase())) return { name: m[1], state: m[2].toUpperCase() };
  return { name: query, state: null };
}

const cityPlace = (g: Gazetteer, i: number): Place => ({
  label: `${g.cityName[i]}, ${g.cityState[i]}`,
  kind: 'city',
  lat: g.cityLat[i] as number,
  lon: g.cityLon[i] as number,
  state: g.cityState[i] as string,
});

function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function searchGazetteer(g: Gazetteer, query: string, limit = 10): Place[] {
  const q = query.trim();
  if (!q) return [];
  if (/^\d{3,5}$/.test(q)) {
    const out: Place[] = [];
    for (let i = lowerBound(g.zip, q); i < g.zip.length && out.length < limit; i++) {
      const zip = g.zip[i] as string;
      if (!zip.startsWith(q)) break;
      const c = g.zipCity[i] as number;
      out.push({
        label: `${zip} · ${g.cityName[c]}, ${g.cityState[c]}`,
        kind: 'zip',
        lat: g.zipLat[i] as number,
        lon: g.zipLon[i] as number,
        state: g.cityState[c] as string,
      });
    }
    return out;
  }
  const { name, state } = splitState(q);
  const key = normalizeName(name);
  if (!key) return [];
  const tiers: number[][] = [[], [], []];
  for (let i = 0; i < g.cityKey.length; i++) {
    if (state && g.cityState[i] !== state) continue;
    const k = g.cityKey[i] as string;
    if (k === key) tiers[0]?.push(i);
    else if (k.startsWith(key)) tiers[1]?.push(i);
    else if (k.includes(` ${key}`)) tiers[2]?.push(i);
    if ((tiers[0]?.length ?? 0) >= limit) break;
  }
  return tiers
    .flat()
    .slice(0, limit)
    .map((i) => cityPlace(g, i));
}
