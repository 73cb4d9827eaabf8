/**
 * A small laptop window (1024×700) with the demo: the demo banner and the filter bar start folded so
 * the map keeps at least 420 px, the page itself never scrolls, and the legend keeps to a corner of
 * the map. Unfolding both is one click each, and folding them again gives the room back.
 */
import { rm } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForAppReady } from './support/appReady';

const mapHeight = async (page: Page) => (await page.getByTestId('map').boundingBox())?.height ?? 0;

test.afterEach(async ({ dataDir }) => {
  await rm(`${dataDir}-demo`, { recursive: true, force: true });
});

test('at 1024×700 the demo map is at least 420 px tall and the legend leaves it visible', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.reload();
  await waitForAppReady(page);
  await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
  const banner = page.getByTestId('demo-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await waitForAppReady(page);
  await expect(page).toHaveURL(/#\/map$/);
  const map = page.getByTestId('map');
  await expect(map).toHaveAttribute('data-map-state', /ready|loading|empty/);

  // Folded on a short window: the label and the status stay; the map has its room.
  await expect(banner).toContainText('Synthetic demo data');
  await expect(banner.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'false');
  const filters = page.getByRole('region', { name: 'Filters' });
  await expect(filters.getByRole('button', { name: /More filters/ })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(filters.getByTestId('filtered-count')).toBeVisible();
  expect(await mapHeight(page)).toBeGreaterThanOrEqual(420);
  const sizes = await page.evaluate(() => ({
    scroll: (document.scrollingElement ?? document.documentElement).scrollHeight,
    inner: window.innerHeight,
  }));
  expect(sizes.scroll).toBe(sizes.inner);
  await expect(page.getByRole('contentinfo')).toBeInViewport({ ratio: 1 });

  // The legend keeps to a corner: at most half the map's height and a fifth of its area.
  await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 90_000 });
  const legend = page.getByTestId('map-legend');
  await expect(legend).toBeVisible();
  const [l, m] = [await legend.boundingBox(), await map.boundingBox()];
  if (!l || !m) throw new Error('the map or its legend is not on screen');
  expect(l.height).toBeLessThanOrEqual(m.height / 2 + 1);
  expect((l.width * l.height) / (m.width * m.height)).toBeLessThan(0.2);

  // Unfolded, everything is there (the view scrolls, the page does not); folded again, the room is back.
  await banner.getByRole('button', { name: 'Details' }).click();
  await expect(banner).toContainText('nothing here is real');
  await filters.getByRole('button', { name: /More filters/ }).click();
  await expect(filters.getByRole('group', { name: 'Date range' })).toBeVisible();
  await filters.getByRole('button', { name: /Fewer filters/ }).click();
  await banner.getByRole('button', { name: 'Less' }).click();
  expect(await mapHeight(page)).toBeGreaterThanOrEqual(420);
});
