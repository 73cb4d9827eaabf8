/** PMTiles v3: header, tile ids, directories, and the writer. Pure TypeScript. */
export * from './directory';
export * from './format';
export * from './writer';
