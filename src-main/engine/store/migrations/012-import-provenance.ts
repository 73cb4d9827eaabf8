/**
 * Where imported incidents came from, and the columns of another system's file kept with them
 * (engine/import): one row per import run (the file's name, the column mapping's name and a hash
 * of the mapping, when it was written), and per imported incident the run that last wrote it, its
 * id in the other system and its kept columns as a JSON object. A side table rather than columns
 * of `incidents`: the API's rows never have one, and every reader of `incidents` stays as it was.
 */
export const name = 'import-provenance';

export const sql = /* sql */ `
CREATE TABLE import_runs (
  id            INTEGER PRIMARY KEY,
  file_name     TEXT    NOT NULL,
  mapping_name  TEXT,               -- the column mapping the file was read through, if any
  mapping_hash  TEXT,               -- sha-256 of the mapping's JSON (first 16 hex digits)
  imported_at   INTEGER NOT NULL    -- epoch ms
) STRICT;

CREATE TABLE incident_imports (
  cdid         INTEGER PRIMARY KEY, -- an incident an import wrote (source 'import')
  run_id       INTEGER NOT NULL REFERENCES import_runs (id),
  external_id  TEXT,                -- its id in the other system (mapped files)
  attributes   TEXT                 -- JSON object of the file's kept columns, or NULL
) STRICT;
`;
