/**
 * The map is the workspace (issue 26, item 1): at 1280×720 and 1440×900, in the state a user gets
 * by default once the demo has loaded (its notice on one line, panels as they open),
 *
 * - the map's visible box (inside the window and the main pane) is at least 65 % of the window;
 * - the main pane does not scroll in Map and Analysis, and Table fills it too;
 * - the page itself never scrolls;
 * - Table (item 4): the incident's local time in en-US with its zone, and no cell's text cut
 *   (scrollWidth ≤ clientWidth), further down and with the incident panel open too.
 *
 * Screenshots of every view at both sizes go to e2e/artifacts/layout-<view>-<w>x<h>.png.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openView, VIEW_LABELS } from './support/app';
import { waitForAppReady } from './support/appReady';
import { ARTIFACTS_DIR } from './support/paths';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** The map's box as the user sees it: clipped by the window and by the main pane. */
const visibleMapShare = (page: Page) =>
  page.evaluate(() => {
    const map = document.querySelector('[data-testid="map"]')?.getBoundingClientRect();
    const main = document.querySelector('main')?.getBoundingClientRect();
    if (!map || !main) return { share: 0, width: 0, height: 0 };
    const left = Math.max(map.left, main.left, 0);
    const top = Math.max(map.top, main.top, 0);
    const right = Math.min(map.right, main.right, window.innerWidth);
    const bottom = Math.min(map.bottom, main.bottom, window.innerHeight);
    const width = Math.max(0, right - left);
    const height = Math.max(0, bottom - top);
    return { share: (width * height) / (window.innerWidth * window.innerHeight), width, height };
  });

/** How far the main pane (and the page) could scroll. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    const root = document.scrollingElement ?? document.documentElement;
    return {
      main: main ? main.scrollHeight - main.clientHeight : -1,
      page: root.scrollHeight - window.innerHeight,
    };
  });

/** The table's cells (and headers) whose text does not fit their box. */
const cutCells = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[role="grid"] [role="gridcell"], [role="grid"] [role="columnheader"]')]
      .filter((cell) => cell.scrollWidth > cell.clientWidth)
      .map((cell) => `${cell.textContent ?? ''} (${cell.scrollWidth} > ${cell.clientWidth})`),
  );

test.afterEach(async ({ dataDir }) => {
  await rm(`${dataDir}-demo`, { recursive: true, force: true });
});

test('at 1280×720 and 1440×900 the map fills the workspace; Map, Analysis and Table do not scroll', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(SIZES[0]);
  await page.reload();
  await waitForAppReady(page);
  await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
  const banner = page.getByTestId('demo-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 90_000 });

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`;
    // The state a user gets at this size: the window opened at it, the demo loaded.
    await page.setViewportSize(size);
    await page.goto(page.url().replace(/#.*$/, '#/map'));
    await page.reload();
    await waitForAppReady(page);
    const map = page.getByTestId('map');
    await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 90_000 });

    // The demo's notice folded to one line, the legend over the map.
    await expect(banner.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'false');
    expect((await banner.boundingBox())?.height ?? 0).toBeLessThanOrEqual(40);
    await expect(page.getByTestId('map-legend')).toBeVisible();

    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `layout-map-${label}.png`) });
    const mapShare = await visibleMapShare(page);
    expect(mapShare.share, `map ${mapShare.width}×${mapShare.height} at ${label}`).toBeGreaterThanOrEqual(
      0.65,
    );
    expect(await overflow(page), `Map at ${label}`).toEqual({ main: 0, page: 0 });

    for (const view of ['Analysis', 'Table'] as const) {
      await openView(page, view);
      if (view === 'Table') await expect(page.getByRole('grid').getByRole('row').nth(5)).toBeVisible();
      expect(await overflow(page), `${view} at ${label}`).toEqual({ main: 0, page: 0 });
    }

    // Table (item 4): the incident's local time in en-US with its zone, and no cell's text cut —
    // as it opens, further down, and with the incident panel beside it.
    const grid = page.getByRole('grid', { name: 'Incidents' });
    const firstDate = grid.getByRole('row').nth(1).getByRole('gridcell').first();
    await expect(firstDate).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM) [A-Z]{2,5}$/);
    expect(await cutCells(page), `cut cells at ${label}`).toEqual([]);
    await grid.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
    await expect(grid.getByRole('gridcell', { name: 'Loading…' })).toHaveCount(0);
    expect(await cutCells(page), `cut cells further down at ${label}`).toEqual([]);
    await grid.getByRole('row').nth(3).click();
    await expect(page.getByRole('button', { name: 'Close the incident' })).toBeVisible();
    expect(await cutCells(page), `cut cells beside the panel at ${label}`).toEqual([]);

    // Every view, for the record (the others may scroll inside the main pane).
    for (const view of VIEW_LABELS) {
      await openView(page, view);
      if (view === 'Map') await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `layout-${view.toLowerCase()}-${label}.png`) });
    }
  }
});
