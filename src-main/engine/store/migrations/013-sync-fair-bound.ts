/**
 * Each sync run keeps its fair lower bound (engine/sync/fairBound.ts): ceil(N / 500), N = the
 * area's incidents that occurred after the run's since — the request count no strategy can beat on
 * any server, printed beside the run's requests. Null for runs before this migration and for runs
 * not finished.
 */
export const name = 'sync-fair-bound';

export const sql = /* sql */ `
ALTER TABLE sync_runs ADD COLUMN fair_lower_bound INTEGER;
`;
