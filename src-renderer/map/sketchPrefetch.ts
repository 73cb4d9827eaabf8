/**
 * The map's first sketch asked for as soon as the settings are known (the saved view's zoom), while
 * the shell is still reading the first-run facts and the map is being created: `useMapSketch` takes
 * the answer when its filters and zoom are the ones asked for, else asks itself.
 */
import type { Filters } from '../../src-shared/filters';
import type { MapSketch } from '../../src-shared/incidentQueries';
import type { Client } from '../bridge/client';

let pending: { client: Client; key: string; answer: Promise<MapSketch> } | null = null;

const keyOf = (filters: Filters, zoom: number) => JSON.stringify([filters, zoom]);

export function prefetchSketch(client: Client, filters: Filters, zoom: number): void {
  const answer = client.call('getMapSketch', { filters, zoom });
  answer.catch(() => undefined); // a failure is the taker's to see
  pending = { client, key: keyOf(filters, zoom), answer };
}

/** The prefetched answer when it is for these filters and zoom (once), else a new call. */
export function takeSketch(client: Client, filters: Filters, zoom: number): Promise<MapSketch> {
  const mine = pending;
  pending = null;
  if (mine && mine.client === client && mine.key === keyOf(filters, zoom)) return mine.answer;
  return client.call('getMapSketch', { filters, zoom });
}
