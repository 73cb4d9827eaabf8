/**
 * Emailed bulletins (issue 27, item 4): a schedule sends an area's report PDF every week at a
 * local weekday and time (the area's zone) through the alerts' mail server. `last_due_at` is the
 * due instant last sent (set at creation to the one before it, so a new schedule waits for its
 * next time); a claim (`claimed_until`) keeps two processes on one folder (the app and a cron
 * `blotter report --send-due`) from both sending it.
 */
export const name = 'report-schedules';

export const sql = /* sql */ `
CREATE TABLE report_schedules (
  id             INTEGER PRIMARY KEY,
  area_id        INTEGER NOT NULL REFERENCES areas(id) ON DELETE CASCADE,
  weekday        INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),  -- 1 = Monday (ISO)
  time           TEXT    NOT NULL,                                  -- HH:MM, local in the area's zone
  paper          TEXT    NOT NULL DEFAULT 'letter' CHECK (paper IN ('letter', 'a4')),
  recipients     TEXT,                                              -- JSON array; NULL: the alerts' recipients
  created_at     INTEGER NOT NULL,
  last_due_at    INTEGER,                                           -- ms: the due instant last sent
  last_sent_at   INTEGER,
  last_error     TEXT,
  claimed_until  INTEGER
) STRICT;
`;
