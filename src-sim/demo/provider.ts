/** The demo profile's basemaps by name: `demo` (the demo city) or a city's slug; built on first ask. */
import { CITIES } from '../data/cities';
import type { BasemapProvider } from '../http/basemapRoute';
import { demoBasemap } from './basemap';

export const citySlug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function demoBasemaps(demoCity: string): BasemapProvider {
  const built = new Map<number, Uint8Array>();
  return (name) => {
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
