/**
 * The seam between the sync and a surface of the API (DESIGN: an IncidentSource per surface): the
 * live source (liveSource.ts), and the v1 source (v1Source.ts), which adds cursor pages.
 */
import type { ApiDetail, ApiIncident } from './schemas';

export type SortOrder = 'ASC' | 'DESC';

export type SearchQuery = {
  lat: number;
  lon: number;
  /** Degrees. */
  radius: number;
  /** `YYYY-MM-DD`: only incidents that occurred after this day. */
  since?: string;
  maxRecords: number;
  sortOrder: SortOrder;
  /** `date` (report date, the default) or `distance` from the centre (the sync's radius check). */
  sortBy?: 'date' | 'distance';
  /** Type names, sent as given (the sync spells them: sync/typesSpelling.ts); absent for all types. */
  types?: readonly string[];
};

/** What every answered request reports, for the request log. */
export type RequestMeta = {
  /** The URL with the key replaced by REDACTED. */
  url: string;
  status: number;
  startedAt: number;
  durationMs: number;
};

export type SearchResult = { incidents: ApiIncident[]; meta: RequestMeta };
export type DetailResult = { incident: ApiDetail; meta: RequestMeta };

/**
 * One cursor page of the v1 surface (`/v1/incidents`, or `/v1/history` when `history`): a ground
 * circle in miles, occurred_at from `start` (inclusive), in occurred_at order (api/v1Source.ts).
 */
export type PageQuery = {
  lat: number;
  lon: number;
  radiusMi: number;
  /** ISO-8601 instants; inclusive bounds on occurred_at. */
  start?: string;
  end?: string;
  /** App type names (sent lower-case); absent for all types. */
  types?: readonly string[];
  cursor?: string;
  limit: number;
  history?: boolean;
};

/** A page's incidents in the app's form (v1 ids as cdids, types mapped back, `date` from occurred_at). */
export type PageResult = SearchResult & {
  nextCursor: string | null;
  /** Per incident, occurred_at as an instant (epoch ms), in the page's order. */
  occurredUtc: number[];
};

export interface IncidentSource {
  readonly name: string;
  /** Search; throws ApiError for every failure (the error carries the redacted URL). */
  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchResult>;
  detail(cdid: number, signal?: AbortSignal): Promise<DetailResult>;
  /** The v1 surface's cursor pages; absent on a source without it (the live one). */
  page?(query: PageQuery, signal?: AbortSignal): Promise<PageResult>;
}

/** The fetch the hosts pass in: Electron's net.fetch, or Node's fetch (with a proxy when configured). */
export type FetchLike = (
  url: string,
  init: {
    signal?: AbortSignal;
    headers?: Record<string, string>;
    method?: string;
    /** Always 'manual' from the engine: api/outboundAddress.ts decides which redirect to follow. */
    redirect?: 'manual';
  },
) => Promise<Response>;
