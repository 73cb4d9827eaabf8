/**
 * Rows an import could not place (issue 28): a records system's rows without coordinates wait
 * here, outside `incidents` (whose place is never null), with why, until the offline locator
 * (engine/import/places) places them from their address — then they move into `incidents` and
 * `incident_placements` records how (address point, block, interpolated, intersection) and how far
 * off it may be. `place_references` holds the reference files an analyst added (address points,
 * street centre lines with address ranges) as rows the locator reads.
 */
export const name = 'unplaced-incidents';

export const sql = /* sql */ `
CREATE TABLE unplaced_incidents (
  cdid            INTEGER PRIMARY KEY,  -- as the import gave it (a mapped file's namespaced id)
  type            TEXT    NOT NULL,
  address         TEXT    NOT NULL,
  occurred_local  TEXT    NOT NULL,     -- YYYY-MM-DDTHH:MM in timezone
  timezone        TEXT    NOT NULL,     -- the mapping's zone, else most of the file's placed rows', else the area's
  occurred_utc    INTEGER NOT NULL,     -- epoch ms
  description     TEXT,
  external_id     TEXT,
  attributes      TEXT,                 -- JSON object of the file's kept columns, or NULL
  reason          TEXT    NOT NULL,     -- why it has no place (the file's columns that were blank)
  file_name       TEXT    NOT NULL,
  file_row        INTEGER NOT NULL,
  mapping_name    TEXT,
  imported_at     INTEGER NOT NULL,
  tried_at        INTEGER               -- the locator's last try
) STRICT;

CREATE TABLE incident_placements (
  cdid           INTEGER PRIMARY KEY,   -- an incident the locator placed
  method         TEXT    NOT NULL CHECK (method IN ('address point', 'block', 'interpolated', 'intersection')),
  uncertainty_m  INTEGER NOT NULL,
  placed_at      INTEGER NOT NULL
) STRICT;

CREATE TABLE place_references (
  id         INTEGER PRIMARY KEY,
  file_name  TEXT    NOT NULL,
  kind       TEXT    NOT NULL CHECK (kind IN ('address points', 'centre lines')),
  items      INTEGER NOT NULL,
  added_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE place_reference_points (
  ref_id  INTEGER NOT NULL REFERENCES place_references (id) ON DELETE CASCADE,
  street  TEXT    NOT NULL,
  number  INTEGER NOT NULL,
  lat     REAL    NOT NULL,
  lon     REAL    NOT NULL
) STRICT;

CREATE TABLE place_reference_lines (
  ref_id  INTEGER NOT NULL REFERENCES place_references (id) ON DELETE CASCADE,
  street  TEXT    NOT NULL,
  lfrom   INTEGER,
  lto     INTEGER,
  rfrom   INTEGER,
  rto     INTEGER,
  line    TEXT    NOT NULL              -- JSON [[lat, lon], …]
) STRICT;
`;
