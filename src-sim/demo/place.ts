/**
 * Where a demo incident happens: the simulator's usual draw (hot spots and scatter, snapped to a
 * block point), redrawn until it lies inside the city's street extent, out of the water, at a block
 * point on the street its address names. Cities keep their shape; nothing lands in the lake or river.
 */
import { BLOCK_LAT, BLOCK_LON, snapToBlock } from '../data/addresses';
import { CITIES } from '../data/cities';
import { drawPlace } from '../data/occurrences';
import type { Prng } from '../data/prng';
import { cityMap, type CityMap } from './cityMap';
import { streetNetwork, type StreetNetwork } from './streets';

const TRIES = 50;
const cache = new Map<number, { map: CityMap; network: StreetNetwork }>();

export function demoCity(cityIndex: number): { map: CityMap; network: StreetNetwork } {
  let city = cache.get(cityIndex);
  if (!city) {
    const map = cityMap(cityIndex);
    city = { map, network: streetNetwork(map) };
    cache.set(cityIndex, city);
  }
  return city;
}

export function acceptable(cityIndex: number, lat: number, lon: number): boolean {
  const { map, network } = demoCity(cityIndex);
  const ix = Math.round(lon / BLOCK_LON);
  const iy = Math.round(lat / BLOCK_LAT);
  return map.inExtent(lat, lon) && !map.inWater(lat, lon) && network.onItsStreet(ix, iy);
}

export function drawDemoPlace(cityIndex: number, prng: Prng): { lat: number; lon: number } {
  for (let k = 0; k < TRIES; k++) {
    const p = drawPlace(cityIndex, prng);
    if (acceptable(cityIndex, p.lat, p.lon)) return p;
  }
  const c = CITIES[cityIndex];
  return snapToBlock(c?.lat ?? 0, c?.lon ?? 0);
}
