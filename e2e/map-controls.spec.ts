/**
 * The Map's controls as a newcomer uses them, over a seeded archive:
 *
 * - "Skip to map" is the first thing Tab reaches, and puts focus on the map (from any view).
 * - The legend labels its two numbers ("Matching", "In view"); "In view" keeps following the map
 *   with the clusters off (heat only, or no layer).
 * - Escape closes the incident panel wherever focus is.
 * - Date filter: after "Clear all" one preset looks pressed; Custom… does not move the bar's
 *   controls; a "to" before the "from" is swapped and the bar says so.
 */
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { reloadApp } from './support/appReady';
import { LONE, seedMapData } from './support/mapSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 3000);
    await use(dataDir);
  },
});

async function moveTo(page: Page, lat: number, lon: number, zoom: number): Promise<void> {
  await page.evaluate(
    ([a, o, z]) => window.__blotterMapTest?.setView(a as number, o as number, z as number),
    [lat, lon, zoom],
  );
}

/** The legend's "In view" numbers, by type. */
const inViewCounts = (page: Page) =>
  page
    .getByTestId('map-legend')
    .locator('[data-in-view]')
    .evaluateAll((spans) => spans.map((s) => s.textContent ?? '').join('|'));

test('"Skip to map" is the first stop and focuses the map, from any view', async ({ page }) => {
  await openView(page, 'Settings');
  await reloadApp(page); // focus starts at the top of the page, as after a launch
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to map' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/map$/);
  await expect(page.getByTestId('map')).toBeFocused();

  // On the Map already: the same.
  await reloadApp(page);
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('map')).toBeFocused();
});

test('the legend labels its numbers and "In view" follows the map with the clusters off', async ({
  page,
}) => {
  await openView(page, 'Map');
  const map = page.getByTestId('map');
  await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 20_000 });
  const legend = page.getByTestId('map-legend');
  await expect(legend.getByText('Matching', { exact: true })).toBeVisible();
  await expect(legend.getByText('In view', { exact: true })).toBeVisible();

  await page.getByRole('checkbox', { name: 'Clusters' }).uncheck();
  await page.getByRole('checkbox', { name: 'Heat' }).check();
  await moveTo(page, 41.88, -87.63, 10);
  await expect.poll(() => inViewCounts(page)).toMatch(/\d/);
  const wide = await inViewCounts(page);
  // Far from every incident: "In view" drops to nothing.
  await moveTo(page, 10, 10, 12);
  await expect.poll(() => inViewCounts(page)).not.toBe(wide);
  expect((await inViewCounts(page)).replace(/[0|]/g, '')).toBe('');
  // Back over the data with no layer at all: the counts come back.
  await page.getByRole('checkbox', { name: 'Heat' }).uncheck();
  await moveTo(page, 41.88, -87.63, 10);
  await expect.poll(() => inViewCounts(page)).toBe(wide);
});

test('Escape closes the incident panel wherever focus is', async ({ page }) => {
  await openView(page, 'Map');
  const map = page.getByTestId('map');
  await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 20_000 });
  const before = Number(await map.getAttribute('data-draws'));
  await moveTo(page, LONE.lat, LONE.lon, 16);
  await expect.poll(async () => Number(await map.getAttribute('data-draws'))).toBeGreaterThan(before);
  const point = await page.evaluate(
    ([a, o]) => window.__blotterMapTest?.project(a as number, o as number),
    [LONE.lat, LONE.lon],
  );
  const box = await map.boundingBox();
  if (!point || !box) throw new Error('The map is not on screen.');
  await page.mouse.click(box.x + point.x, box.y + point.y);
  const panel = page.getByTestId('incident-panel');
  await expect(panel).toBeVisible();
  // Focus is on the map (the click), not in the panel.
  await expect(panel.locator(':focus')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
});

test('dates: one choice pressed after Clear all, Custom… moves nothing, a swapped range is said', async ({
  page,
}) => {
  await openView(page, 'Table');
  const bar = page.getByRole('region', { name: 'Filters' });
  const dates = bar.getByRole('group', { name: 'Date range' });
  const pressed = dates.locator('button[aria-pressed="true"]');
  const hours = bar.getByRole('group', { name: /time of day|hours/i }).first();
  const weekdays = bar.getByRole('group', { name: 'Weekdays' });
  const placeOf = async () => ({
    bar: (await bar.boundingBox())?.height,
    weekdays: await weekdays.boundingBox(),
    hours: await hours.boundingBox(),
  });

  const closed = await placeOf();
  await dates.getByRole('button', { name: 'Custom…' }).click();
  await expect(pressed).toHaveCount(1);
  await expect(pressed).toHaveText('Custom…');
  expect(await placeOf()).toEqual(closed);

  await bar.getByLabel('From', { exact: true }).fill('2026-03-10');
  await bar.getByLabel('to', { exact: true }).fill('2026-03-01');
  await expect(bar.getByTestId('date-swapped')).toContainText('swapped');
  await expect(bar.getByLabel('From', { exact: true })).toHaveValue('2026-03-01');
  await expect(bar.getByLabel('to', { exact: true })).toHaveValue('2026-03-10');

  await bar.getByRole('button', { name: 'Clear all' }).click();
  await expect(pressed).toHaveCount(1);
  await expect(pressed).not.toHaveText('Custom…');
  await expect(bar.getByTestId('date-swapped')).toHaveCount(0);
});
