/**
 * Export to GIS formats from the Export view: GeoPackage, Shapefile (zip) and KML of exactly the
 * filtered incidents, downloaded from the page and opened with GDAL (ogrinfo, what QGIS uses).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { seedDatabase } from '../bench/seed';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedDatabase(path.join(dataDir, 'blotter.sqlite'), { count: 1500, seed: 13, days: 60 });
    await use(dataDir);
  },
});

async function exportAndDownload(page: Page, format: RegExp, saveAs: string): Promise<string> {
  await page.getByRole('radio', { name: format }).check();
  await page.getByRole('button', { name: /^Export/ }).click();
  await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 45_000,
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const target = path.join(ARTIFACTS_DIR, saveAs);
  await download.saveAs(target);
  return target;
}

const featureCount = (source: string, layer: string): number =>
  Number(/Feature Count: (\d+)/.exec(execFileSync('ogrinfo', ['-so', source, layer]).toString())?.[1]);

test('the filtered set as GeoPackage, Shapefile and KML, each opened by GDAL with the count shown', async ({
  page,
}) => {
  await openView(page, 'Export');
  const label = page.getByTestId('export-count');
  await expect(label).toHaveText(/^\d[\d,]*$/);
  const shown = Number((await label.textContent())?.replace(/,/g, ''));
  expect(shown).toBeGreaterThan(0);

  const gpkg = await exportAndDownload(page, /^GeoPackage/, 'export.gpkg');
  expect(featureCount(gpkg, 'incidents')).toBe(shown);
  const zip = await exportAndDownload(page, /^Shapefile/, 'export-shp.zip');
  const info = execFileSync('ogrinfo', ['-so', '-al', `/vsizip/${zip}`]).toString();
  expect(Number(/Feature Count: (\d+)/.exec(info)?.[1])).toBe(shown);
  const kml = await exportAndDownload(page, /^KML/, 'export.kml');
  expect(featureCount(kml, 'Incidents')).toBe(shown);
});
