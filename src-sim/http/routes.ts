/** The route table: which path is which endpoint, and which surface (auth style) it belongs to. */
import { PLANNED_ONLY } from './v1';

export type Route =
  | { name: 'search'; surface: 'live' }
  | { name: 'detail'; surface: 'live'; cdid: string }
  | { name: 'v1-incidents'; surface: 'v1' }
  | { name: 'v1-history'; surface: 'v1' }
  | { name: 'v1-score'; surface: 'v1' }
  | { name: 'v1-trends'; surface: 'v1' }
  | { name: 'v1-planned'; surface: 'v1'; path: string };

export function matchRoute(path: string, v1Enabled: boolean): Route | null {
  if (path === '/crimes.json') return { name: 'search', surface: 'live' };
  const d = /^\/crimes\/([^/]+)\.json$/.exec(path);
  if (d) return { name: 'detail', surface: 'live', cdid: d[1] ?? '' };
  if (!v1Enabled) return null;
  if (path === '/v1/incidents') return { name: 'v1-incidents', surface: 'v1' };
  if (path === '/v1/history') return { name: 'v1-history', surface: 'v1' };
  if (path === '/v1/score') return { name: 'v1-score', surface: 'v1' };
  if (path === '/v1/trends') return { name: 'v1-trends', surface: 'v1' };
  if (PLANNED_ONLY.includes(path)) return { name: 'v1-planned', surface: 'v1', path };
  return null;
}
