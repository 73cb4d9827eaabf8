/** Every way an extract can fail, as one typed error with words a user understands. */
export type ExtractProblemCode =
  | 'source_changed'
  | 'no_range_support'
  | 'not_pmtiles'
  | 'http'
  /** A directory over 16 MB, or all the directories one extract reads over 64 MB (a gzip bomb included). */
  | 'too_large'
  /** A directory or the metadata that is not what PMTiles says (not gzip, not a directory). */
  | 'damaged'
  | 'too_many_tiles'
  | 'bad_request'
  | 'cancelled';

export class ExtractProblem extends Error {
  constructor(
    readonly code: ExtractProblemCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractProblem';
  }
}

export const sourceChanged = (): ExtractProblem =>
  new ExtractProblem(
    'source_changed',
    'The basemap source changed since this download started (a new build); the source changed; start over to download the new version.',
  );
