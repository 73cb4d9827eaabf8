/**
 * The Map: clusters and the legend over the offline basemap, a click through to an incident whose
 * address is an HTML injection attempt (shown as text: no element, no dialog), the heat layer, the
 * legend as a type filter — and, with no tile URL set, not one request to any host but Blotter's.
 */
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { LONE, seedMapData, XSS_ADDRESS } from './support/mapSeed';
import { ARTIFACTS_DIR } from './support/paths';

const test = base.extend<{ seeded: { cdid: number } }>({
  seeded: [async ({}, use) => use({ cdid: 0 }), { option: true }],
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir);
    await use(dataDir);
  },
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS_DIR, `map-${name}.png`) });

async function drawsOf(page: Page): Promise<number> {
  return Number(await page.getByTestId('map').getAttribute('data-draws'));
}

/** Moves the map and waits until the clusters of the new view are drawn. */
async function moveTo(page: Page, lat: number, lon: number, zoom: number): Promise<void> {
  const before = await drawsOf(page);
  await page.evaluate(
    ([a, o, z]) => window.__blotterMapTest?.setView(a as number, o as number, z as number),
    [lat, lon, zoom],
  );
  await expect.poll(() => drawsOf(page)).toBeGreaterThan(before);
}

test('clusters, legend, a safe incident panel and the heat layer; nothing leaves the machine', async ({
  page,
}) => {
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const origin = new URL(page.url()).origin;

  await openView(page, 'Map');
  const map = page.getByTestId('map');
  await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 20_000 });
  const legend = page.getByTestId('map-legend');
  await expect(legend).toBeVisible();
  await expect(legend.getByRole('button', { name: /Theft/ })).toHaveAttribute('aria-pressed', 'true');
  const theft = Number((await legend.locator('[data-type="Theft"]').textContent())?.replace(/,/g, ''));
  expect(theft).toBeGreaterThan(0);
  await expect(page.getByTestId('map-attribution')).toContainText('us-atlas');
  await shot(page, 'clusters');

  // Zoom to the lone incident and click it.
  await moveTo(page, LONE.lat, LONE.lon, 16);
  const point = await page.evaluate(
    ([a, o]) => window.__blotterMapTest?.project(a as number, o as number),
    [LONE.lat, LONE.lon],
  );
  const box = await map.boundingBox();
  if (!point || !box) throw new Error('The map is not on screen.');
  await page.mouse.click(box.x + point.x, box.y + point.y);
  const panel = page.getByTestId('incident-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByText(XSS_ADDRESS, { exact: true }).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  await shot(page, 'incident');
  expect(dialogs).toBe(0);
  await panel.getByRole('button', { name: 'Close the incident' }).click();

  // Heat over the whole data.
  await moveTo(page, 41.88, -87.63, 11);
  await page.getByRole('checkbox', { name: 'Heat' }).check();
  await expect.poll(() => page.evaluate(() => window.__blotterPerf?.heatDraws ?? 0)).toBeGreaterThan(0);
  await shot(page, 'heat');
  await page.getByRole('checkbox', { name: 'Heat' }).uncheck();

  // The legend filters by type: hiding Theft drops it from the counts (and from every view).
  await legend.getByRole('button', { name: /Theft/ }).click();
  await expect(legend.getByRole('button', { name: /Theft/ })).toHaveAttribute('aria-pressed', 'false');
  await expect(legend.locator('[data-type="Theft"]')).toHaveText('—');
  await expect
    .poll(() => page.evaluate(() => window.__blotterPerf?.countsUpdated.length ?? 0))
    .toBeGreaterThan(0);
  await shot(page, 'filtered');

  const elsewhere = requests
    .map((r) => r.url())
    .filter((u) => !u.startsWith(origin) && !/^(data|blob):/.test(u));
  expect(elsewhere).toEqual([]);
});

test('dark scheme: the map and legend follow it', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await openView(page, 'Map');
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 20_000 });
  await shot(page, 'dark');
});
