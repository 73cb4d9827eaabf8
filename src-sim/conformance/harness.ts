/** Shared set-up for the conformance tests: a seeded simulator on a manual clock, and a small HTTP client. */
import { startSimulator } from '../simulator';
import type { SimKey } from '../http/access';
import type { Simulator, SimulatorOptions } from '../types';

/** A clock reading whose 90-day window holds the 2025-11-02 fall-back transition. */
export const NOW = '2025-11-20T15:00:00Z';
const LOCAL = ['127.0.0.1', '::1'];

export const KEYS: SimKey[] = [
  { key: 'dev-key', plan: 'developer', ips: LOCAL },
  { key: 'pro-key', plan: 'pro-monthly', ips: LOCAL },
  { key: 'annual-key', plan: 'pro-annual', ips: LOCAL },
  { key: 'ent-key', plan: 'enterprise', ips: LOCAL, ratePerMinute: 1_000_000, windowDays: 365 },
  { key: 'custom-key', plan: 'enterprise', ips: LOCAL, ratePerMinute: 5 },
  { key: 'remote-key', plan: 'developer', ips: ['203.0.113.7'] },
];

export function start(opts: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ seed: 1, clock: 'manual', now: NOW, keys: KEYS, ...opts });
}

export type Res = { status: number; headers: Headers; text: string; json: () => unknown };

export async function get(
  sim: Simulator,
  path: string,
  params: Record<string, string | number> = {},
  init: RequestInit = {},
): Promise<Res> {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const res = await fetch(`${sim.url}${path}${qs ? `?${qs}` : ''}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

export type Crime = {
  type: string;
  address: string;
  lat: number;
  lon: number;
  cdid: number;
  link: string;
  date: string;
  description?: string;
};

/** A live search with the enterprise key (no rate-limit interference) unless `key` is given. */
export async function searchCrimes(
  sim: Simulator,
  params: Record<string, string | number>,
): Promise<Crime[]> {
  const res = await get(sim, '/crimes.json', { key: 'ent-key', ...params });
  if (res.status !== 200) throw new Error(`search failed: ${res.status} ${res.text}`);
  return (res.json() as { crimes: Crime[] }).crimes;
}

/** The Chicago Loop hot spot: dense enough to saturate, used by most tests. */
export const LOOP = { lat: 41.8837, lon: -87.6289 };

/** `MM/DD/YY HH:MM AM/PM` of an instant in a zone, computed independently with Intl. */
export function legacyDate(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: '2-digit',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month}/${parts.day}/${parts.year} ${parts.hour}:${parts.minute} ${String(parts.dayPeriod).toUpperCase()}`;
}

/** `YYYY-MM-DD` of an instant in a zone (Intl). */
export function localDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));
}

export const ERRORS_BODY = /^\{"errors":\["[^"]/;
