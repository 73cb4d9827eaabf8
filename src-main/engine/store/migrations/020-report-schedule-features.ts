/**
 * A bulletin schedule for one feature of a boundary layer (a beat, a district), not only an area
 * (issue 27: "one area or one feature of a layer"). SQLite cannot loosen `area_id NOT NULL` in
 * place, so the table is rebuilt: exactly one of `area_id` and `feature_id` is set (the feature's
 * layer is its own `layer_id`); removing the area or the layer's feature removes its schedule.
 */
export const name = 'report-schedule-features';

export const sql = /* sql */ `
CREATE TABLE report_schedules_next (
  id             INTEGER PRIMARY KEY,
  area_id        INTEGER REFERENCES areas(id) ON DELETE CASCADE,
  feature_id     INTEGER REFERENCES reference_features(id) ON DELETE CASCADE,
  weekday        INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),  -- 1 = Monday (ISO)
  time           TEXT    NOT NULL,                                  -- HH:MM, local in the target's zone
  paper          TEXT    NOT NULL DEFAULT 'letter' CHECK (paper IN ('letter', 'a4')),
  recipients     TEXT,                                              -- JSON array; NULL: the alerts' recipients
  created_at     INTEGER NOT NULL,
  last_due_at    INTEGER,                                           -- ms: the due instant last sent
  last_sent_at   INTEGER,
  last_error     TEXT,
  claimed_until  INTEGER,
  CHECK ((area_id IS NULL) <> (feature_id IS NULL))
) STRICT;
INSERT INTO report_schedules_next
  (id, area_id, weekday, time, paper, recipients, created_at, last_due_at, last_sent_at, last_error, claimed_until)
  SELECT id, area_id, weekday, time, paper, recipients, created_at, last_due_at, last_sent_at, last_error, claimed_until
    FROM report_schedules;
DROP TABLE report_schedules;
ALTER TABLE report_schedules_next RENAME TO report_schedules;
`;
