/**
 * An incident's subtype in the office archive, as in each desktop's store (store migration 017):
 * the category an imported file gave it, carried whole with the row (ALL_COLUMNS).
 */
export const name = 'incident-subtype';

export const sql = /* sql */ `
ALTER TABLE incidents ADD COLUMN subtype text;
`;
