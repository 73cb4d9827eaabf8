/**
 * An incident's subtype: the category its source file gave it (a mapped import's type column, as
 * the file has it — SF's "Larceny Theft" under the type Theft; import/mapping/vocabulary.ts). NULL
 * for the API's incidents and for rows read with one type for every row. Shown in the incident
 * panel and the table, exported, and found by the text search: the text index gains the column
 * (read again from incidents, as migration 014 did; its triggers name the new column).
 */
export const name = 'incident-subtype';

export const sql = /* sql */ `
ALTER TABLE incidents ADD COLUMN subtype TEXT;

DROP TRIGGER incidents_ai;
DROP TRIGGER incidents_ad;
DROP TRIGGER incidents_au_text;
DROP TABLE incidents_fts;
CREATE VIRTUAL TABLE incidents_fts USING fts5 (
  address, description, subtype, content = 'incidents', content_rowid = 'cdid', tokenize = 'unicode61',
  columnsize = 0
);
INSERT INTO incidents_fts (incidents_fts) VALUES ('rebuild');

CREATE TRIGGER incidents_ai AFTER INSERT ON incidents BEGIN
  INSERT INTO incidents_fts (rowid, address, description, subtype)
    VALUES (new.cdid, new.address, new.description, new.subtype);
END;

CREATE TRIGGER incidents_ad AFTER DELETE ON incidents BEGIN
  INSERT INTO incidents_fts (incidents_fts, rowid, address, description, subtype)
    VALUES ('delete', old.cdid, old.address, old.description, old.subtype);
END;

CREATE TRIGGER incidents_au_text AFTER UPDATE OF address, description, subtype ON incidents BEGIN
  INSERT INTO incidents_fts (incidents_fts, rowid, address, description, subtype)
    VALUES ('delete', old.cdid, old.address, old.description, old.subtype);
  INSERT INTO incidents_fts (rowid, address, description, subtype)
    VALUES (new.cdid, new.address, new.description, new.subtype);
END;
`;
