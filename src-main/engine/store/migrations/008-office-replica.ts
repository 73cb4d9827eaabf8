/**
 * Office mode (engine/office/): a data folder joined to an office PostgreSQL database keeps here
 * which one (its address, without a password, and the office's id) and how far its replica has
 * pulled each replicated table (the office's change numbers). No row: a standalone archive.
 */
export const name = 'office-replica';

export const sql = /* sql */ `
CREATE TABLE office_link (
  id              INTEGER PRIMARY KEY CHECK (id = 1),
  url             TEXT    NOT NULL,  -- postgres://user@host:port/db — never a password
  office_id       TEXT    NOT NULL,
  joined_at       INTEGER NOT NULL,
  pulled_at       INTEGER,
  seq_areas       INTEGER NOT NULL DEFAULT 0,
  seq_coverage    INTEGER NOT NULL DEFAULT 0,
  seq_incidents   INTEGER NOT NULL DEFAULT 0,
  seq_deletions   INTEGER NOT NULL DEFAULT 0
) STRICT;
`;
