/** How a stored incident looks on the wire: the live forms, the v1 forms, and the ground-truth form. */
import type { CrimeCategory, CrimeType } from '../../src-shared/crimeTypes';
import { describeIncident } from './describe';
import type { Store } from './store';
import { formatIsoWithOffset, formatLegacyDate } from './timeZones';

/** The permalink site of the simulated service (a reserved, non-resolving domain). */
export const SITE = 'https://crime.example.test';

export type LiveIncident = {
  type: CrimeType;
  address: string;
  lat: number;
  lon: number;
  cdid: number;
  link: string;
  date: string;
};

export type LiveDetail = LiveIncident & { description: string };

export type V1Incident = {
  id: string;
  type: CrimeCategory;
  raw_type: CrimeType;
  occurred_at: string;
  address: string;
  lat: number;
  lon: number;
  url: string;
};

export type V1HistoryIncident = Pick<V1Incident, 'id' | 'type' | 'occurred_at' | 'lat' | 'lon'>;

/** A live detail plus what the simulator knows and the API does not say. */
export type TruthIncident = LiveDetail & {
  /** When it happened and when it was reported, ISO-8601 UTC. */
  occurredAt: string;
  reportedAt: string;
  city: string;
  timezone: string;
  /** Times amended after publication. */
  revision: number;
};

export const linkOf = (cdid: number, site: string = SITE): string => `${site}/incident/${cdid}`;

export function liveIncident(store: Store, row: number): LiveIncident {
  const cdid = store.cdid[row] ?? 0;
  const city = store.city[row] ?? 0;
  return {
    type: store.typeName(row),
    address: store.address(row),
    lat: store.lat[row] ?? 0,
    lon: store.lon[row] ?? 0,
    cdid,
    link: linkOf(cdid, store.site),
    date: formatLegacyDate(store.zone(city).local(store.reportedAt[row] ?? 0)),
  };
}

export function liveDetail(store: Store, row: number): LiveDetail {
  const base = liveIncident(store, row);
  return { ...base, description: describeIncident(base.cdid, base.type, base.address) };
}

function occurredIso(store: Store, row: number): string {
  const at = store.occurredAt[row] ?? 0;
  return formatIsoWithOffset(at, store.zone(store.city[row] ?? 0).offset(at));
}

export function v1Incident(store: Store, row: number): V1Incident {
  const cdid = store.cdid[row] ?? 0;
  const raw = store.typeName(row);
  return {
    id: String(cdid),
    type: raw.toLowerCase() as CrimeCategory,
    raw_type: raw,
    occurred_at: occurredIso(store, row),
    address: store.address(row),
    lat: store.lat[row] ?? 0,
    lon: store.lon[row] ?? 0,
    url: linkOf(cdid, store.site),
  };
}

export function v1HistoryIncident(store: Store, row: number): V1HistoryIncident {
  return {
    id: String(store.cdid[row] ?? 0),
    type: store.typeName(row).toLowerCase() as CrimeCategory,
    occurred_at: occurredIso(store, row),
    lat: store.lat[row] ?? 0,
    lon: store.lon[row] ?? 0,
  };
}

export function truthIncident(store: Store, row: number): TruthIncident {
  const city = store.cities[store.city[row] ?? 0];
  return {
    ...liveDetail(store, row),
    occurredAt: new Date(store.occurredAt[row] ?? 0).toISOString(),
    reportedAt: new Date(store.reportedAt[row] ?? 0).toISOString(),
    city: city?.name ?? '',
    timezone: city?.timezone ?? '',
    revision: store.revision[row] ?? 0,
  };
}
