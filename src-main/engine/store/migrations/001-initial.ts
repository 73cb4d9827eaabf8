/**
 * The first schema: incidents (with spatial and text indexes), areas, settings, the coverage
 * ledger, sync runs and the request log. Times are epoch milliseconds (UTC) unless the column
 * name says otherwise.
 */
export const name = 'initial';

export const sql = /* sql */ `
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL               -- JSON
) STRICT;

CREATE TABLE incidents (
  cdid            INTEGER PRIMARY KEY,
  type            TEXT    NOT NULL,
  address         TEXT    NOT NULL,
  lat             REAL    NOT NULL,
  lon             REAL    NOT NULL,
  link            TEXT    NOT NULL,
  date_raw        TEXT    NOT NULL,  -- exactly as the API sent it: MM/DD/YY HH:MM AM/PM
  occurred_local  TEXT    NOT NULL,  -- local wall time, YYYY-MM-DDTHH:MM
  timezone        TEXT    NOT NULL,  -- IANA zone at lat/lon
  occurred_utc    INTEGER NOT NULL,  -- the instant, epoch ms
  time_flag       TEXT CHECK (time_flag IN ('ambiguous', 'nonexistent')),
  local_day       TEXT    NOT NULL,  -- YYYY-MM-DD of occurred_local
  local_hour      INTEGER NOT NULL,  -- 0..23
  local_weekday   INTEGER NOT NULL,  -- 0 = Sunday .. 6 = Saturday
  description     TEXT,
  description_fetched_at INTEGER,
  first_seen      INTEGER NOT NULL,
  last_seen       INTEGER NOT NULL,
  removed_at      INTEGER,
  removed_reason  TEXT,
  source          TEXT    NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'import'))
) STRICT;

CREATE INDEX incidents_by_time ON incidents (occurred_utc);
CREATE INDEX incidents_by_type_time ON incidents (type, occurred_utc);
CREATE INDEX incidents_by_day ON incidents (local_day);

CREATE VIRTUAL TABLE incidents_rtree USING rtree (cdid, min_lat, max_lat, min_lon, max_lon);

CREATE VIRTUAL TABLE incidents_fts USING fts5 (
  address, description, content = 'incidents', content_rowid = 'cdid', tokenize = 'unicode61'
);

CREATE TRIGGER incidents_ai AFTER INSERT ON incidents BEGIN
  INSERT INTO incidents_rtree (cdid, min_lat, max_lat, min_lon, max_lon)
    VALUES (new.cdid, new.lat, new.lat, new.lon, new.lon);
  INSERT INTO incidents_fts (rowid, address, description) VALUES (new.cdid, new.address, new.description);
END;

CREATE TRIGGER incidents_ad AFTER DELETE ON incidents BEGIN
  DELETE FROM incidents_rtree WHERE cdid = old.cdid;
  INSERT INTO incidents_fts (incidents_fts, rowid, address, description)
    VALUES ('delete', old.cdid, old.address, old.description);
END;

CREATE TRIGGER incidents_au_geo AFTER UPDATE OF lat, lon ON incidents BEGIN
  UPDATE incidents_rtree SET min_lat = new.lat, max_lat = new.lat, min_lon = new.lon, max_lon = new.lon
    WHERE cdid = new.cdid;
END;

CREATE TRIGGER incidents_au_text AFTER UPDATE OF address, description ON incidents BEGIN
  INSERT INTO incidents_fts (incidents_fts, rowid, address, description)
    VALUES ('delete', old.cdid, old.address, old.description);
  INSERT INTO incidents_fts (rowid, address, description) VALUES (new.cdid, new.address, new.description);
END;

CREATE TABLE areas (
  id               INTEGER PRIMARY KEY,
  name             TEXT    NOT NULL,
  kind             TEXT    NOT NULL CHECK (kind IN ('circle', 'polygon')),
  center_lat       REAL    NOT NULL,  -- circle centre, or the polygon's centroid
  center_lon       REAL    NOT NULL,
  radius_mi        REAL,              -- circles only
  polygon          TEXT,              -- polygons only: JSON [[lat, lon], ...]
  min_lat          REAL    NOT NULL,
  min_lon          REAL    NOT NULL,
  max_lat          REAL    NOT NULL,
  max_lon          REAL    NOT NULL,
  refresh_minutes  INTEGER NOT NULL DEFAULT 15,
  paused           INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  last_synced_at   INTEGER
) STRICT;

-- The coverage ledger: for each tile of an area and each local day, what we know.
-- complete: an unsaturated answer covered the day; saturated: the day alone filled a response and
-- was finished by splitting; provisional: recent days that are still being reported.
CREATE TABLE coverage (
  area_id     INTEGER NOT NULL REFERENCES areas (id) ON DELETE CASCADE,
  tile        TEXT    NOT NULL,  -- tile key: "lat,lon,radiusDeg" (plus a split suffix)
  day         TEXT    NOT NULL,  -- YYYY-MM-DD
  status      TEXT    NOT NULL CHECK (status IN ('complete', 'saturated', 'provisional')),
  checked_at  INTEGER NOT NULL,
  PRIMARY KEY (area_id, tile, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE sync_runs (
  id           INTEGER PRIMARY KEY,
  area_id      INTEGER REFERENCES areas (id) ON DELETE SET NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('backfill', 'refresh', 'details')),
  state        TEXT    NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER,
  planned      INTEGER NOT NULL DEFAULT 0,
  done         INTEGER NOT NULL DEFAULT 0,
  new_count    INTEGER NOT NULL DEFAULT 0,
  updated_count INTEGER NOT NULL DEFAULT 0,
  removed_count INTEGER NOT NULL DEFAULT 0,
  error        TEXT
) STRICT;

-- Every API request, with the key redacted from the URL before it is written.
CREATE TABLE request_log (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER REFERENCES sync_runs (id) ON DELETE SET NULL,
  at           INTEGER NOT NULL,
  url          TEXT    NOT NULL,  -- redacted: key=REDACTED
  status       INTEGER,           -- HTTP status, NULL for a network failure
  duration_ms  INTEGER NOT NULL,
  records      INTEGER,
  error        TEXT
) STRICT;
CREATE INDEX request_log_by_time ON request_log (at);
`;
