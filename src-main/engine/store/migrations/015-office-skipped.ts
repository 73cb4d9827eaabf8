/**
 * Office mode (engine/office/pulledRows.ts): a row the office database holds but Blotter would
 * never write (a NaN latitude, hour 99) is skipped by the replica's pull rather than stopping it,
 * and kept here by its table and key with what was wrong, for the office status to name. A later
 * good version of the row, or its deletion, takes it off the list; leaving the office clears it.
 */
export const name = 'office-skipped';

export const sql = /* sql */ `
CREATE TABLE office_skipped (
  tbl         TEXT    NOT NULL,  -- areas | coverage | incidents | deletions
  key         TEXT    NOT NULL,  -- the row's key in its table (a cdid, an area id, …)
  change_seq  INTEGER NOT NULL,  -- the office's change number of the skipped version
  problem     TEXT    NOT NULL,
  at          INTEGER NOT NULL,
  PRIMARY KEY (tbl, key)
) STRICT, WITHOUT ROWID;
`;
