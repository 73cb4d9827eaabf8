/**
 * The sync's persisted state: the job table (one row per tile job of a run — the plan and its
 * frontier, so a crash or kill at any moment resumes where the last committed response left it),
 * run counters, per-area refresh bookkeeping, and what we learned about the server's behaviour.
 */
export const name = 'sync';

export const sql = /* sql */ `
CREATE TABLE sync_jobs (
  id            INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
  parent_id     INTEGER REFERENCES sync_jobs (id) ON DELETE CASCADE,
  root_id       INTEGER,             -- the tree's root job; NULL for a root
  lat           REAL    NOT NULL,    -- the tile: a degree-space circle around its cell
  lon           REAL    NOT NULL,
  radius        REAL    NOT NULL,
  cell_min_lat  REAL    NOT NULL,
  cell_max_lat  REAL    NOT NULL,
  cell_min_lon  REAL    NOT NULL,
  cell_max_lon  REAL    NOT NULL,
  depth         INTEGER NOT NULL DEFAULT 0,
  types         TEXT,                -- JSON array of type names; NULL for every type
  since         TEXT    NOT NULL,    -- YYYY-MM-DD: the frontier, the next request's since
  mode          TEXT    NOT NULL DEFAULT 'asc' CHECK (mode IN ('asc', 'desc')),
  asc_last_utc  INTEGER,             -- desc mode: where the last ascending page ended
  state         TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'split', 'failed')),
  pages         INTEGER NOT NULL DEFAULT 0,
  rows          INTEGER NOT NULL DEFAULT 0,
  estimate      INTEGER NOT NULL DEFAULT 1,  -- requests this job still expects to need
  error         TEXT,
  updated_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX sync_jobs_by_run ON sync_jobs (run_id, state);

ALTER TABLE sync_runs ADD COLUMN since_day TEXT;           -- the roots' since: what the run proves
ALTER TABLE sync_runs ADD COLUMN window_start INTEGER;     -- the plan window's start when planned
ALTER TABLE sync_runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_runs ADD COLUMN rate_limited INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_runs ADD COLUMN lower_bound INTEGER;      -- sum over root tiles of max(1, ceil(n / 500))

ALTER TABLE areas ADD COLUMN backfilled_at INTEGER;        -- when a backfill of the whole window finished
ALTER TABLE areas ADD COLUMN deep_refreshed_at INTEGER;    -- when a deep trailing refresh last finished

-- What a server does with a since older than the plan window: the spec says it answers nothing,
-- some serve the window anyway. Learned from answers, per base URL.
CREATE TABLE api_quirks (
  base_url             TEXT PRIMARY KEY,
  since_before_window  TEXT NOT NULL CHECK (since_before_window IN ('window', 'empty')),
  observed_at          INTEGER NOT NULL
) STRICT;
`;
