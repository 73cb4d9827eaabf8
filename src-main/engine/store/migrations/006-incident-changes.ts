/**
 * A change counter for the incidents, inside the file: every insert, delete and change of a column
 * the query engine reads (not last_seen, which a sync touches for every incident it sees again)
 * adds one, whoever writes — the app, a command-line sync, an import. The saved query snapshot
 * (engine/query/snapshotCache.ts) records the counter it reflects and the file's random id, so a
 * later session knows whether it is still current without trusting file times; a restored backup
 * carries its own id and counter.
 */
export const name = 'incident-changes';

const bump = `UPDATE incident_changes SET n = n + 1 WHERE id = 1;`;

export const sql = /* sql */ `
CREATE TABLE incident_changes (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  n       INTEGER NOT NULL,
  file_id TEXT    NOT NULL
) STRICT;
INSERT INTO incident_changes (id, n, file_id) VALUES (1, 0, lower(hex(randomblob(8))));

CREATE TRIGGER incident_changes_ai AFTER INSERT ON incidents BEGIN ${bump} END;
CREATE TRIGGER incident_changes_ad AFTER DELETE ON incidents BEGIN ${bump} END;
CREATE TRIGGER incident_changes_au AFTER UPDATE OF cdid, type, address, lat, lon, occurred_utc,
  occurred_local, local_day, timezone, removed_at, description ON incidents BEGIN ${bump} END;
`;
