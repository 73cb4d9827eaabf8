/**
 * Analysis on the full map (issue 26, item 5), on a seeded archive with a planted near-repeat
 * pattern:
 * - a hot spot result (with its resolved parameters) is kept after a round trip through Table, and
 *   marked stale when the filters change;
 * - a Gi* cell click opens the Table under a chip naming the cell, the area filter still in force;
 * - repeat locations list History's places, in History's words;
 * - a significant Knox cell lists its pairs and downloads them as CSV.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { seedMapData } from './support/mapSeed';
import { plantNearRepeats } from './support/nearRepeatSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 3000);
    plantNearRepeats(dataDir);
    await use(dataDir);
  },
});

const areaPicker = (page: Page) => page.getByLabel('Area', { exact: true });

async function chooseChicago(page: Page) {
  await areaPicker(page).selectOption({ label: 'Chicago' });
}

/** The filter bar folded, so its active filters show as chips. */
async function foldFilters(page: Page) {
  const fewer = page.getByRole('button', { name: /Fewer filters/ });
  if (await fewer.isVisible()) await fewer.click();
}

test('a hot spot result stays through a trip to Table, with its parameters; it goes stale when the filters change', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openView(page, 'Analysis');
  await chooseChicago(page);
  await page.getByRole('button', { name: 'Run' }).click();
  const map = page.getByTestId('analysis-map');
  await expect(map).toHaveAttribute('data-cells', /^[1-9]\d*$/);
  const cells = await map.getAttribute('data-cells');
  const parameters = page.getByTestId('analysis-parameters');
  // "auto" values resolved: the cell size and band in metres, the period and the incidents counted.
  await expect(parameters).toContainText(/Cell size\s*\d[\d,]* m \(auto/);
  await expect(parameters).toContainText(/Distance band\s*\d[\d,]* m \(auto: 2 cells\)/);
  await expect(parameters).toContainText(/Period\s*[A-Z][a-z]{2} \d{1,2}/);
  await expect(parameters).toContainText(/Incidents counted\s*[1-9]/);
  // The map fills the work area: most of the window's width.
  const box = await map.boundingBox();
  expect(box!.width).toBeGreaterThan(1280 * 0.6);
  expect(box!.height).toBeGreaterThan(300);

  await openView(page, 'Table');
  await openView(page, 'Analysis');
  await expect(map).toHaveAttribute('data-cells', cells!);
  await expect(map.locator('path.hotspot-cell')).toHaveCount(Number(cells));
  await expect(parameters).toContainText('Cell size');
  await expect(page.getByTestId('analysis-result-panel')).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('analysis-stale')).toHaveCount(0);

  await areaPicker(page).selectOption({ label: 'New York' });
  await expect(page.getByTestId('analysis-stale')).toContainText('Stale');
  await chooseChicago(page);
  await expect(page.getByTestId('analysis-stale')).toHaveCount(0);
  // Stale again, and computed again on the filters in force.
  await areaPicker(page).selectOption({ label: 'New York' });
  await page.getByRole('button', { name: 'Recompute with these filters' }).click();
  await expect(page.getByTestId('analysis-stale')).toHaveCount(0);
  await expect(map).not.toHaveAttribute('data-cells', cells!);
});

test('a Gi* cell opens its incidents under a chip that names it; the area stays', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openView(page, 'Table');
  await chooseChicago(page);
  const table = page.getByTestId('incident-table');
  await expect(table).toHaveAttribute('data-total', /^[1-9]\d*$/);
  const before = Number(await table.getAttribute('data-total'));

  await openView(page, 'Analysis');
  await page.getByRole('button', { name: 'Run' }).click();
  const map = page.getByTestId('analysis-map');
  await expect(map).toHaveAttribute('data-cells', /^[1-9]\d*$/);
  const busy = map.locator('path.hotspot-cell');
  const counts = await busy.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  const cell = busy.nth(counts.indexOf(Math.max(...counts)));
  const name = await cell.getAttribute('data-cell');
  expect(name).toMatch(/^\d+,\d+$/);
  await cell.dispatchEvent('click');

  await expect(page.getByRole('heading', { level: 1, name: 'Table' })).toBeVisible();
  await foldFilters(page);
  const chips = page.getByTestId('active-filters');
  await expect(chips).toContainText(`Gi* cell ${name}`);
  await expect(chips).not.toContainText('Drawn polygon');
  // The area filter is still Chicago (not replaced by the cell's polygon).
  await expect(areaPicker(page).locator('option:checked')).toHaveText('Chicago');
  await expect(table).toHaveAttribute('data-total', String(Math.max(...counts)));
  expect(Math.max(...counts)).toBeLessThan(before);

  // Removing the chip gives the area's incidents back.
  await page.getByRole('button', { name: `Remove the filter Gi* cell ${name}` }).click();
  await expect(table).toHaveAttribute('data-total', String(before));
});

test('repeat locations list History’s places in History’s words', async ({ page }) => {
  await openView(page, 'History');
  await chooseChicago(page);
  const top = page.getByTestId('top-locations').locator('tbody tr');
  await expect(top.first()).toBeVisible();
  const readHistory = () =>
    top.evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  // The list may still be Everywhere's for a moment after the choice: wait for Chicago's (its clock).
  await expect
    .poll(async () => (await readHistory()).every((cells) => / C[SD]T$/.test(cells.at(-1) ?? '')))
    .toBe(true);
  const history = await readHistory();
  expect(history.length).toBeGreaterThan(2);

  await openView(page, 'Analysis');
  await page.getByLabel('Analysis to run').selectOption({ label: 'Repeat locations' });
  await page.getByRole('button', { name: 'Run' }).click();
  const list = page.getByTestId('repeat-list');
  await expect(list.locator('tbody tr').first()).toBeVisible();
  const rows = await list
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  // #, address, incidents, most common type, first, latest: History's #, address, incidents, type, latest.
  const analysis = rows
    .slice(0, history.length)
    .map(([k, address, n, type, , latest]) => [k, address, n, type, latest]);
  expect(analysis).toEqual(history.map(([k, address, n, type, latest]) => [k, address, n, type, latest]));
  // Local date and time with the zone, never an ISO day.
  expect(rows[0]?.[4]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?(AM|PM) [A-Z]{2,5}$/);
  await expect(page.getByTestId('analysis-map')).toHaveAttribute('data-layer', 'repeats');

  // Its incidents: the place's, under a chip with its address; the area stays.
  const [, address, n] = rows[0] as string[];
  await list.getByRole('button', { name: `Show incidents of ${address}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Table' })).toBeVisible();
  await expect(page.getByTestId('incident-table')).toHaveAttribute('data-total', n!);
  await foldFilters(page);
  await expect(page.getByTestId('active-filters')).toContainText(address!);
  await expect(areaPicker(page).locator('option:checked')).toHaveText('Chicago');
});

test('a significant Knox cell lists its pairs and downloads them as CSV', async ({ page }) => {
  await openView(page, 'Analysis');
  await chooseChicago(page);
  await page.getByLabel('Analysis to run').selectOption({ label: 'Near repeat (Knox)' });
  await page.getByLabel('Day bands').fill('0,1,14');
  await page.getByRole('button', { name: 'Run' }).click();
  const knox = page.getByTestId('knox');
  await expect(knox.locator('tbody tr')).toHaveCount(4);
  const significant = knox.locator('tbody tr[data-significant="true"]').first();
  await expect(significant).toBeVisible();
  await significant.getByRole('button', { name: /^Show pairs/ }).click();
  const pairs = page.getByTestId('knox-pairs');
  await expect(pairs).toContainText('0–400 ft, 0–1 days');
  const listed = await pairs.locator('tbody tr').count();
  expect(listed).toBeGreaterThan(0);
  await expect(pairs.locator('tbody tr').first()).toContainText(
    /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}/,
  );
  await expect(page.getByTestId('analysis-parameters')).toContainText('Permutations');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    pairs.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('knox-pairs-0-400ft-0-1days.csv');
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe(
    'first_id,first_type,first_address,first_local_time,second_id,second_type,second_address,second_local_time,distance_ft,days_apart',
  );
  expect(lines).toHaveLength(listed + 1);
});
