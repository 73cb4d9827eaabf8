/**
 * The seam between the sync and a surface of the API (DESIGN: an IncidentSource per surface). The
 * live surface is the only one today; a v1 source would implement the same interface.
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
  /** Type names (sent lower-case); absent for all types. */
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

export interface IncidentSource {
  readonly name: string;
  /** Search; throws ApiError for every failure (the error carries the redacted URL). */
  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchResult>;
  detail(cdid: number, signal?: AbortSignal): Promise<DetailResult>;
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
