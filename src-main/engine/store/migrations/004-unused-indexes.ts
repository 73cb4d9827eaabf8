/**
 * Drops two indexes on incidents that no query uses: filters, counts, tables and charts are answered
 * from the query engine's columnar snapshot (engine/query), and the SQL that remains looks incidents
 * up by cdid, by the R*Tree, or by local day (the CLI export's date range: incidents_by_day stays).
 * The only user of incidents_by_type_time, the types a sync may split by, now reads them only when
 * a split is needed (sync/runSetup.ts). Each index cost every synced or imported row a B-tree insert
 * (a million-row import spent 1.2 s rebuilding them).
 */
export const name = 'unused-indexes';

export const sql = /* sql */ `
DROP INDEX IF EXISTS incidents_by_time;
DROP INDEX IF EXISTS incidents_by_type_time;
`;
