/**
 * A problem with an import file as a whole — empty, cut short, not UTF-8, not the columns Blotter
 * reads — as opposed to one bad row. The preview refuses such a file with one message saying what
 * is wrong (imports.ts answers it as `bad_input`), rather than reading it as "nothing to import"
 * or listing the same complaint on every row. Plain Error (no engine imports): the check threads
 * throw it too, and pass it on by message with `fileProblem: true`.
 */
export class FileProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileProblem';
  }
}

/** "row 57" for a data row, "the header row" before the first one (CSV), for messages. */
export const rowWords = (row: number): string => (row > 0 ? `row ${row}` : 'the header row');
