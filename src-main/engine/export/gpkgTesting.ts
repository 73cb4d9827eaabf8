/**
 * Test helpers for GeoPackage exports (used by *.test.ts files only): GDAL's own validator and
 * ogrinfo's answers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * GDAL's own GeoPackage validator (validate_gpkg.py, shipped with gdal-bin's python3-gdal), with
 * its checks beyond the requirements and its warnings as errors: silent when the file is right.
 * It checks each spatial index too (its extension row, columns and triggers).
 */
export function expectValidGeoPackage(file: string): void {
  const validator = '/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py';
  const run = spawnSync('/usr/bin/python3', [validator, '-k', '--extra', '--warning-as-error', file]);
  expect(`${run.stdout}${run.stderr}`).toBe('');
  expect(run.status).toBe(0);
}

/** One value GDAL's SQL gives (`ogrinfo FILE -sql ...`), as the text ogrinfo prints it. */
export function gdalSqlValue(file: string, sql: string): string {
  const out = execFileSync('ogrinfo', ['-ro', '-q', file, '-sql', sql]).toString();
  const value = /^ {2}\S.* = (.*)$/m.exec(out)?.[1];
  if (value === undefined) throw new Error(`ogrinfo gave no value for ${sql}:\n${out}`);
  return value;
}

/** How many of `layer`'s features GDAL's spatial filter (`ogrinfo -spat`, through the index) finds in a box. */
export function gdalCountInBox(
  file: string,
  layer: string,
  box: { minLon: number; minLat: number; maxLon: number; maxLat: number },
): number {
  const out = execFileSync('ogrinfo', [
    '-ro',
    '-so',
    '-spat',
    ...[box.minLon, box.minLat, box.maxLon, box.maxLat].map(String),
    file,
    layer,
  ]).toString();
  const count = /^Feature Count: (\d+)$/m.exec(out)?.[1];
  if (count === undefined) throw new Error(`ogrinfo gave no feature count for ${layer}:\n${out}`);
  return Number(count);
}
