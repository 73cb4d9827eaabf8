/**
 * Alerts (engine/alerts/): rules as zod data, alerts as rows written in the sync commit that
 * produced them, a per-rule/per-incident ledger (each incident fires a rule at most once), notes
 * when an incident an alert carries is amended, removed or restored (triggers, so they land in the
 * writer's own transaction whoever writes), the channels, and a persisted delivery queue with its log.
 */
export const name = 'alerts';

export const sql = /* sql */ `
CREATE TABLE alert_rules (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: an alert names its rule
  spec         TEXT    NOT NULL,                   -- JSON, src-shared/alerts.ts AlertRuleInput
  paused       INTEGER NOT NULL DEFAULT 0,
  active_from  INTEGER NOT NULL,                   -- incidents first seen before it never fire it
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE alerts (
  id           INTEGER PRIMARY KEY,
  uid          TEXT    NOT NULL UNIQUE,            -- stable: Message-ID, idempotency key
  rule_id      INTEGER REFERENCES alert_rules (id) ON DELETE SET NULL,
  rule_name    TEXT    NOT NULL,
  area_id      INTEGER REFERENCES areas (id) ON DELETE SET NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('any', 'threshold', 'spike', 'nearRepeat')),
  cdids        TEXT    NOT NULL,                   -- JSON array: the incidents that fired it
  detail       TEXT    NOT NULL DEFAULT '{}',      -- JSON: counts, the spike's p, near incidents
  spike_week   INTEGER,                            -- spikes: the Monday week, once per rule and area
  run_id       INTEGER,
  fired_at     INTEGER NOT NULL,
  read_at      INTEGER
) STRICT;
CREATE INDEX alerts_by_time ON alerts (fired_at);
CREATE UNIQUE INDEX alerts_one_spike_a_week ON alerts (rule_id, area_id, spike_week)
  WHERE spike_week IS NOT NULL;

CREATE TABLE alert_fired (
  rule_id   INTEGER NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
  cdid      INTEGER NOT NULL,
  alert_id  INTEGER NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  PRIMARY KEY (rule_id, cdid)
) STRICT, WITHOUT ROWID;
CREATE INDEX alert_fired_by_cdid ON alert_fired (cdid);
CREATE INDEX alert_fired_by_alert ON alert_fired (alert_id);

CREATE TABLE alert_notes (
  id        INTEGER PRIMARY KEY,
  alert_id  INTEGER NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  cdid      INTEGER NOT NULL,
  kind      TEXT    NOT NULL CHECK (kind IN ('amended', 'removed', 'restored')),
  at        INTEGER NOT NULL
) STRICT;
CREATE INDEX alert_notes_by_alert ON alert_notes (alert_id);

CREATE TRIGGER alert_notes_amended AFTER UPDATE OF type, address, lat, lon, date_raw ON incidents
WHEN (old.type IS NOT new.type OR old.address IS NOT new.address OR old.lat IS NOT new.lat
      OR old.lon IS NOT new.lon OR old.date_raw IS NOT new.date_raw)
BEGIN
  INSERT INTO alert_notes (alert_id, cdid, kind, at)
    SELECT DISTINCT alert_id, new.cdid, 'amended', new.last_seen FROM alert_fired WHERE cdid = new.cdid;
END;

CREATE TRIGGER alert_notes_removed AFTER UPDATE OF removed_at ON incidents
WHEN old.removed_at IS NULL AND new.removed_at IS NOT NULL
BEGIN
  INSERT INTO alert_notes (alert_id, cdid, kind, at)
    SELECT DISTINCT alert_id, new.cdid, 'removed', new.removed_at FROM alert_fired WHERE cdid = new.cdid;
END;

CREATE TRIGGER alert_notes_restored AFTER UPDATE OF removed_at ON incidents
WHEN old.removed_at IS NOT NULL AND new.removed_at IS NULL
BEGIN
  INSERT INTO alert_notes (alert_id, cdid, kind, at)
    SELECT DISTINCT alert_id, new.cdid, 'restored', new.last_seen FROM alert_fired WHERE cdid = new.cdid;
END;

-- Where alerts go besides the inbox. Secrets (the webhook URL, the SMTP password) are in the
-- keychain, never here.
CREATE TABLE alert_channels (
  channel     TEXT    PRIMARY KEY CHECK (channel IN ('webhook', 'email')),
  enabled     INTEGER NOT NULL DEFAULT 1,
  config      TEXT    NOT NULL,  -- JSON, engine/alerts/channels.ts
  updated_at  INTEGER NOT NULL
) STRICT;

-- The delivery queue: one row per alert and channel, written with the alert. At least once.
CREATE TABLE alert_deliveries (
  id               INTEGER PRIMARY KEY,
  alert_id         INTEGER NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  channel          TEXT    NOT NULL CHECK (channel IN ('webhook', 'email')),
  state            TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  last_error       TEXT,
  delivered_at     INTEGER,
  created_at       INTEGER NOT NULL,
  UNIQUE (alert_id, channel)
) STRICT;
CREATE INDEX alert_deliveries_due ON alert_deliveries (state, next_attempt_at);

CREATE TABLE alert_delivery_log (
  id           INTEGER PRIMARY KEY,
  delivery_id  INTEGER NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
  at           INTEGER NOT NULL,
  ok           INTEGER NOT NULL,
  error        TEXT,                -- redacted
  duration_ms  INTEGER NOT NULL
) STRICT;
CREATE INDEX alert_delivery_log_by_delivery ON alert_delivery_log (delivery_id);
`;
