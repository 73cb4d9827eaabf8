/**
 * The incidents' text index stops keeping each row's column sizes (FTS5's `columnsize=0`): they
 * serve only bm25() ranking, and Blotter never ranks by text — a search is a set of matching
 * rowids (query/fts.ts, alerts/archive.ts). Every indexed row cost a row in incidents_fts_docsize
 * (11 MB per million incidents), and rebuilding the index after a million-row import took about a
 * third longer with them (import/merge.ts). Matches, phrases and prefixes are unchanged. The index
 * is read again from incidents (external content): its triggers name it, so they stay as they are.
 */
export const name = 'fts-no-column-sizes';

export const sql = /* sql */ `
DROP TABLE incidents_fts;
CREATE VIRTUAL TABLE incidents_fts USING fts5 (
  address, description, content = 'incidents', content_rowid = 'cdid', tokenize = 'unicode61',
  columnsize = 0
);
INSERT INTO incidents_fts (incidents_fts) VALUES ('rebuild');
`;
