/**
 * Several Blotter processes on one data folder (the app and a command-line sync, two CLIs):
 * - sync_locks: which process syncs which area, so a second sync of that area is refused with the
 *   holder's pid (sync/syncLock.ts);
 * - request_log gains the key's digest, the sending process and when each request ended, so every
 *   process admits a request only after counting the key's requests of the last minute there,
 *   inside one IMMEDIATE transaction (sync/rateLedger.ts): one rate budget per key;
 * - indexes that let old runs, jobs and log rows be pruned in small batches (sync/historyPrune.ts).
 */
export const name = 'shared-sync';

export const sql = /* sql */ `
CREATE TABLE sync_locks (
  area_id       INTEGER PRIMARY KEY,
  holder        TEXT    NOT NULL,   -- random per process
  pid           INTEGER NOT NULL,
  host          TEXT    NOT NULL,
  heartbeat_at  INTEGER NOT NULL
) STRICT;

ALTER TABLE request_log ADD COLUMN key_digest TEXT;   -- sha-256 prefix of the key, never the key
ALTER TABLE request_log ADD COLUMN holder TEXT;       -- the process that sent it
ALTER TABLE request_log ADD COLUMN ended_at INTEGER;  -- NULL while in flight
CREATE INDEX request_log_by_key ON request_log (key_digest, at);
CREATE INDEX request_log_by_run ON request_log (run_id);

CREATE INDEX sync_runs_by_area ON sync_runs (area_id, id);
CREATE INDEX sync_jobs_by_parent ON sync_jobs (parent_id);
`;
