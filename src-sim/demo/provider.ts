/**
 * The demo profile's basemaps by name: `demo` (the demo city's) or a city's slug; built or read on
 * first ask. San Francisco's is the real Protomaps archive in data/ (© OpenStreetMap contributors);
 * the test profile's cities have synthetic street grids (basemap.ts).
 */
import { CITIES } from '../data/cities';
import type { BasemapProvider } from '../http/basemapRoute';
import { demoBasemap } from './basemap';
import { sfArchiveBytes } from './realStreets';
import { SAN_FRANCISCO } from './sanFrancisco';

export const citySlug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function demoBasemaps(demoCity: string): BasemapProvider {
  const built = new Map<number, Uint8Array>();
  let real: Uint8Array | null = null;
  return (name) => {
    if (name === 'demo' ? demoCity === SAN_FRANCISCO.name : name === citySlug(SAN_FRANCISCO.name))
      return (real ??= sfArchiveBytes());
    const index = CITIES.findIndex((c) =>
      name === 'demo' ? c.name === demoCity : citySlug(c.name) === name,
    );
    if (index < 0) return null;
    let bytes = built.get(index);
    if (!bytes) {
      bytes = demoBasemap(index).bytes;
      built.set(index, bytes);
    }
    return bytes;
  };
}
