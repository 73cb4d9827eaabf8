/**
 * The Analysis view on a seeded archive: hot spots draw their grid and legend and a hot cell drills
 * down to the table; kernel density draws its raster with a legend in incidents per square mile;
 * the Knox table marks its cells with a summary; repeat locations drill down; CompStat shows its
 * table; too few incidents are refused in words.
 */
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { importHalvesLayer } from './support/halves';
import { seedMapData } from './support/mapSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 3000);
    await use(dataDir);
  },
});

async function chooseChicago(page: Page) {
  await page.getByLabel('Area', { exact: true }).selectOption({ label: 'Chicago' });
}

test('hot spots draw the grid and legend; clicking a hot cell filters the table to its incidents', async ({
  page,
}) => {
  await openView(page, 'Table');
  await chooseChicago(page);
  const table = page.getByTestId('incident-table');
  await expect(table).toHaveAttribute('data-total', /^[1-9]\d*$/);
  const before = Number(await table.getAttribute('data-total'));

  await openView(page, 'Analysis');
  await page.getByRole('button', { name: 'Run' }).click();
  const map = page.getByTestId('analysis-map');
  await expect(map).toHaveAttribute('data-layer', 'hotspots');
  await expect(map).toHaveAttribute('data-cells', /^[1-9]\d*$/);
  const cells = Number(await map.getAttribute('data-cells'));
  await expect(map.locator('path.hotspot-cell')).toHaveCount(cells);
  await expect(page.getByTestId('analysis-legend')).toContainText('Hot spot, 99 % confidence');
  await expect(page.getByTestId('analysis-legend')).toContainText('not shown as cold');

  // The busiest significant hot cell (a hot cell may itself be empty, next to busy ones).
  const hotCells = map.locator('path.hotspot-bin3, path.hotspot-bin2, path.hotspot-bin1');
  const counts = await hotCells.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  expect(Math.max(...counts)).toBeGreaterThan(0);
  const hot = hotCells.nth(counts.indexOf(Math.max(...counts)));
  await expect(hot).toBeVisible();
  await hot.dispatchEvent('click');
  await expect(page.getByRole('heading', { level: 1, name: 'Table' })).toBeVisible();
  await expect(table).toHaveAttribute('data-total', /^[1-9]\d*$/);
  const after = Number(await table.getAttribute('data-total'));
  expect(after).toBeLessThan(before);
});

test('kernel density draws a raster with a legend in incidents per square mile', async ({ page }) => {
  await openView(page, 'Analysis');
  await chooseChicago(page);
  await page.getByLabel('Analysis to run').selectOption({ label: 'Kernel density' });
  await page.getByRole('button', { name: 'Run' }).click();
  const map = page.getByTestId('analysis-map');
  await expect(map).toHaveAttribute('data-layer', 'kde');
  await expect(map.locator('img.kde-raster')).toHaveCount(1);
  await expect(page.getByTestId('analysis-legend')).toContainText('incidents per square mile');
});

test('near repeat shows the Knox table and its summary; CompStat its table', async ({ page }) => {
  await openView(page, 'Analysis');
  await chooseChicago(page);
  await page.getByLabel('Analysis to run').selectOption({ label: 'Near repeat (Knox)' });
  await page.getByRole('button', { name: 'Run' }).click();
  const knox = page.getByTestId('knox');
  await expect(knox.locator('tbody tr')).toHaveCount(4);
  await expect(page.getByTestId('knox-summary').locator('li').first()).not.toBeEmpty();

  await page.getByLabel('Analysis to run').selectOption({ label: 'CompStat' });
  await page.getByRole('button', { name: 'Run' }).click();
  const cs = page.getByTestId('compstat');
  await expect(cs.locator('caption').first()).toContainText('Chicago');
  await expect(cs.locator('thead th')).toContainText([
    'Offense',
    'Week to date',
    'Last 7 days',
    'Last 28 days',
    'Year to date',
  ]);
  await expect(cs.locator('tbody th', { hasText: 'Total' })).toHaveCount(1);
  await expect(cs.locator('tbody th', { hasText: 'Violent' })).toHaveCount(1);
  await expect(cs).not.toContainText('vs 0');
});

test('CompStat by the features of a reference layer: one table per feature, named for it', async ({
  page,
}) => {
  await importHalvesLayer(page);

  await openView(page, 'Analysis');
  await page.getByLabel('Analysis to run').selectOption({ label: 'CompStat' });
  await page.getByLabel('Tables by').selectOption({ label: 'Feature of Halves (one table per feature)' });
  await page.getByRole('button', { name: 'Run' }).click();
  const captions = page.getByTestId('compstat').locator('caption');
  await expect(captions).toHaveCount(2);
  await expect(captions.nth(0)).toContainText('Halves: ');
  await expect(page.getByTestId('compstat')).toContainText('Halves: North half');
  await expect(page.getByTestId('compstat')).toContainText('Halves: South half');
});

test('repeat locations list places and one drills down to its incidents; too few incidents are refused', async ({
  page,
}) => {
  await openView(page, 'Analysis');
  await chooseChicago(page);
  await page.getByLabel('Analysis to run').selectOption({ label: 'Repeat locations' });
  await page.getByLabel('Group within (m; 0 = same block address)').fill('100');
  await page.getByRole('button', { name: 'Run' }).click();
  const list = page.getByTestId('repeat-list');
  await expect(list.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('analysis-map')).toHaveAttribute('data-layer', 'repeats');
  // The smallest place listed: its few incidents are then too few for an analysis.
  const count = Number(await list.locator('tbody tr').last().getByTestId('repeat-count').textContent());
  expect(count).toBeLessThan(30);
  await list.getByRole('button', { name: 'Show incidents' }).last().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Table' })).toBeVisible();
  const table = page.getByTestId('incident-table');
  await expect(table).toHaveAttribute('data-total', /^[1-9]\d*$/);
  expect(Number(await table.getAttribute('data-total'))).toBeGreaterThanOrEqual(count);

  await openView(page, 'Analysis');
  await page.getByLabel('Analysis to run').selectOption({ label: 'Hot spots (Gi*)' });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('analysis-error')).toContainText('needs at least 30 incidents');
});
