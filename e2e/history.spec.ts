/**
 * History over a seeded archive: the trend chart drawn with its axis titles and units (and redrawn
 * per day), the period comparison, the hour × weekday grid, the top locations and the coverage
 * band; screenshots in light and dark to e2e/artifacts/.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { seedMapData } from './support/mapSeed';
import { ARTIFACTS_DIR } from './support/paths';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 3000);
    await use(dataDir);
  },
});

/** How many pixels of the chart's canvas are drawn (not transparent). */
const inkedPixels = (page: Page) =>
  page.getByTestId('trend-chart').evaluate((canvas: HTMLCanvasElement) => {
    const data =
      canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ??
      new Uint8ClampedArray();
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 0) n++;
    return n;
  });

test('trend, comparison, hours, top locations and coverage follow the archive; light and dark', async ({
  page,
}) => {
  await openView(page, 'History');
  const chart = page.getByTestId('trend-chart');
  await expect(chart).toBeVisible();
  // The default filter is the last 90 days: weekly bars.
  await expect(chart).toHaveAttribute('data-y-title', 'Incidents per week');
  await expect(chart).toHaveAttribute('data-x-title', 'Week starting Monday (local dates)');
  await expect.poll(() => inkedPixels(page)).toBeGreaterThan(2000);
  await expect(page.locator('figcaption', { hasText: 'Incidents per week, stacked by type' })).toHaveCount(1);

  await page.getByText('Day', { exact: true }).click();
  await expect(chart).toHaveAttribute('data-y-title', 'Incidents per day');
  await expect(chart).toHaveAttribute('data-x-title', 'Day (local date)');

  const compare = page.getByTestId('compare-cards');
  await expect(compare).toContainText('This period');
  await expect(compare).toContainText('A year earlier');
  await expect(compare).toContainText('The archive holds none of these');
  await expect(page.getByTestId('hour-grid').locator('tbody tr')).toHaveCount(7);
  await expect(page.getByTestId('hour-grid').locator('tbody td')).toHaveCount(7 * 24);
  await expect(page.getByTestId('top-locations').locator('tbody tr')).toHaveCount(15);
  await expect(page.getByTestId('coverage-band')).toContainText(/days complete, \d+ provisional/);

  await page.setViewportSize({ width: 1280, height: 2300 }); // every section in one screenshot
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => inkedPixels(page)).toBeGreaterThan(2000);
    await page.screenshot({
      path: path.join(ARTIFACTS_DIR, `history-seeded${scheme === 'dark' ? '-dark' : ''}.png`),
    });
  }
});

test('the charts follow the filters', async ({ page }) => {
  await openView(page, 'History');
  const chart = page.getByTestId('trend-chart');
  await expect(chart).toHaveAttribute('data-buckets', /\d+/);
  const top = page.getByTestId('top-locations').locator('tbody tr').first();
  await expect(top).toBeVisible();
  const before = await page.getByTestId('hour-grid').locator('caption').textContent();
  await page.getByRole('button', { name: /^7 days/ }).click();
  await expect(page.getByTestId('hour-grid').locator('caption')).not.toHaveText(before ?? '');
  await expect(chart).toHaveAttribute('data-buckets', '7');
});
