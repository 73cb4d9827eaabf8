/**
 * The incidents' spatial index becomes an ordinary B-tree index on (lon cell, lat, lon), where a
 * lon cell is `CAST(lon * 100 AS INTEGER)` (columns 0.01° wide); box queries ask it one seek per
 * column (store/incidents/boxQuery.ts, which must spell the cell expression exactly as here). The
 * R*Tree goes with its triggers: it can only be filled an insert at a time (about 6 s per million
 * rows, the import's largest cost), where this index is built from a sort (a fraction of a
 * second) and kept by SQLite itself on every write. The insert and delete triggers keep only their
 * full-text half. An expression index rather than a generated column: `SELECT *` rows stay as they
 * were.
 */
export const name = 'box-index';

export const sql = /* sql */ `
DROP TRIGGER IF EXISTS incidents_ai;
DROP TRIGGER IF EXISTS incidents_ad;
DROP TRIGGER IF EXISTS incidents_au_geo;
DROP TABLE IF EXISTS incidents_rtree;

CREATE TRIGGER incidents_ai AFTER INSERT ON incidents BEGIN
  INSERT INTO incidents_fts (rowid, address, description) VALUES (new.cdid, new.address, new.description);
END;

CREATE TRIGGER incidents_ad AFTER DELETE ON incidents BEGIN
  INSERT INTO incidents_fts (incidents_fts, rowid, address, description)
    VALUES ('delete', old.cdid, old.address, old.description);
END;

CREATE INDEX incidents_by_lon_cell ON incidents (CAST(lon * 100 AS INTEGER), lat, lon);
`;
