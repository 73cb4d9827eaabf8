/**
 * The leader's job state in the office database: per area, the run in progress (its sync_runs row
 * and its sync_jobs rows, as JSON) written in the same fenced transaction as the page's incidents
 * and coverage, so a leader that dies mid-run is resumed by the next one exactly where the office
 * archive stands — no page lost, none applied twice. The fencing token of the write is kept.
 */
export const name = 'sync-state';

export const sql = /* sql */ `
CREATE TABLE sync_state (
  area_id     bigint PRIMARY KEY,
  token       bigint      NOT NULL,
  holder      text        NOT NULL,
  run         jsonb       NOT NULL,
  jobs        jsonb       NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
`;
