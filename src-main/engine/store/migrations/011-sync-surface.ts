/**
 * The v1 surface (sync/surface*.ts):
 * - sync_runs.surface: which surface a run asks ('live', 'v1', or 'v1-history' for the opt-in
 *   36-month backfill); a run in progress finishes on the surface it started on;
 * - sync_jobs.cursor / start_at / end_at: a v1 job's next page (the service's cursor, persisted
 *   with the page it follows, so a kill resumes from it) and its occurred_at bounds, sent
 *   unchanged with every page (a cursor belongs to its query);
 * - api_surfaces: per base URL, when /v1/incidents was last probed and what came of it (at most
 *   one probe a day), in words for the status;
 * - area_scores: an area's v1 safety score and trend series, when the plan serves them.
 */
export const name = 'sync-surface';

export const sql = /* sql */ `
ALTER TABLE sync_runs ADD COLUMN surface TEXT NOT NULL DEFAULT 'live';
ALTER TABLE sync_jobs ADD COLUMN cursor TEXT;
ALTER TABLE sync_jobs ADD COLUMN start_at INTEGER;
ALTER TABLE sync_jobs ADD COLUMN end_at INTEGER;

CREATE TABLE api_surfaces (
  base_url    TEXT    PRIMARY KEY,
  probed_at   INTEGER NOT NULL,
  state       TEXT    NOT NULL CHECK (state IN ('absent', 'verified', 'mismatch', 'unverified')),
  reason      TEXT    NOT NULL,
  history     TEXT    CHECK (history IN ('yes', 'no'))
) STRICT;

CREATE TABLE area_scores (
  area_id     INTEGER PRIMARY KEY REFERENCES areas (id) ON DELETE CASCADE,
  fetched_at  INTEGER NOT NULL,
  score       TEXT,     -- JSON: the v1 safety score, or NULL when the plan or service has none
  trends      TEXT      -- JSON: the v1 trend series, or NULL
) STRICT;
`;
