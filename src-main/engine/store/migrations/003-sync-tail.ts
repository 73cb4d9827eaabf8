/**
 * Sync jobs gain a third way of asking: 'tail', a descending last page that meets the ascending
 * ones (see engine/sync/decide.ts). SQLite cannot alter a CHECK constraint, so the table is rebuilt
 * with the same columns; the jobs of unfinished runs are kept.
 */
export const name = 'sync-tail';

export const sql = /* sql */ `
CREATE TABLE sync_jobs_new (
  id            INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
  parent_id     INTEGER REFERENCES sync_jobs_new (id) ON DELETE CASCADE,
  root_id       INTEGER,
  lat           REAL    NOT NULL,
  lon           REAL    NOT NULL,
  radius        REAL    NOT NULL,
  cell_min_lat  REAL    NOT NULL,
  cell_max_lat  REAL    NOT NULL,
  cell_min_lon  REAL    NOT NULL,
  cell_max_lon  REAL    NOT NULL,
  depth         INTEGER NOT NULL DEFAULT 0,
  types         TEXT,
  since         TEXT    NOT NULL,
  mode          TEXT    NOT NULL DEFAULT 'asc' CHECK (mode IN ('asc', 'tail', 'desc')),
  asc_last_utc  INTEGER,             -- where the last ascending page (of the job or its parent) ended
  state         TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'split', 'failed')),
  pages         INTEGER NOT NULL DEFAULT 0,
  rows          INTEGER NOT NULL DEFAULT 0,
  estimate      INTEGER NOT NULL DEFAULT 1,
  error         TEXT,
  updated_at    INTEGER NOT NULL
) STRICT;
INSERT INTO sync_jobs_new SELECT * FROM sync_jobs;
DROP TABLE sync_jobs;
ALTER TABLE sync_jobs_new RENAME TO sync_jobs;
CREATE INDEX sync_jobs_by_run ON sync_jobs (run_id, state);
`;
