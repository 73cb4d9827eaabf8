/**
 * The one way to ask for the incidents inside a lat/lon box: a SQL condition and its parameters,
 * answered by the ordinary index `incidents_by_lon_cell` on (lon cell, lat, lon) (migration 008).
 *
 * A lon cell is a column of the map `1 / LON_CELLS_PER_DEGREE` degrees wide (0.01°, about half a
 * mile in the US): `CAST(lon * 100 AS INTEGER)`, truncated toward zero. A box becomes one index
 * seek per column it meets (`cell IN (c0 … c1)`), each reading only the box's latitude range;
 * longitude is checked from the index too, so only the incidents inside the box are read from the
 * table. (A range on the cell would not seek on latitude; an R*Tree has to be built an insert at a
 * time, which cost a million-row import about 6 s, where this index is built from a sort.)
 *
 * The condition is exact on the stored doubles: lat in [minLat, maxLat] and lon in [minLon, maxLon],
 * edges included. The cells c0 = cell(minLon) … c1 = cell(maxLon) hold every such point, since the
 * cell is computed by the same IEEE operations here and in SQLite and both are monotonic.
 *
 * Usage: `WHERE ${inBoxSql('i')} AND …` with `{ ...boxParams(box), … }` as named parameters.
 */
import type { Box } from '../../../../src-shared/geo';

/** Columns of the map per degree of longitude. */
export const LON_CELLS_PER_DEGREE = 100;

/** The name of the index that answers box queries. */
export const BOX_INDEX = 'incidents_by_lon_cell';

/** The column of a longitude, as the index computes it (`CAST(lon * 100 AS INTEGER)`; 0, not -0). */
export const lonCell = (lon: number): number => Math.trunc(lon * LON_CELLS_PER_DEGREE) + 0;

/** The named parameters of `inBoxSql`. */
export type BoxParams = {
  boxMinLat: number;
  boxMaxLat: number;
  boxMinLon: number;
  boxMaxLon: number;
  boxCell0: number;
  boxCell1: number;
};

export function boxParams(box: Box): BoxParams {
  return {
    boxMinLat: box.minLat,
    boxMaxLat: box.maxLat,
    boxMinLon: box.minLon,
    boxMaxLon: box.maxLon,
    boxCell0: lonCell(box.minLon),
    boxCell1: lonCell(box.maxLon),
  };
}

/**
 * The condition "incident `alias` lies in the box" (named parameters: `boxParams`). The cell
 * expression must stay the index's own, word for word, for SQLite to use the index.
 */
export function inBoxSql(alias: string): string {
  const a = alias ? `${alias}.` : '';
  return `CAST(${a}lon * ${LON_CELLS_PER_DEGREE} AS INTEGER) IN (
      WITH RECURSIVE box_cells(c) AS (SELECT @boxCell0 UNION ALL SELECT c + 1 FROM box_cells WHERE c < @boxCell1)
      SELECT c FROM box_cells)
    AND ${a}lat BETWEEN @boxMinLat AND @boxMaxLat AND ${a}lon BETWEEN @boxMinLon AND @boxMaxLon`;
}
