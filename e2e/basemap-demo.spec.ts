/**
 * The demo city's streets, offline: the demo downloads its area's extract from the simulator (a
 * loopback PMTiles with range requests) through the basemap download, and the Map view draws it
 * with protomaps-leaflet. At zoom 15 the rendered canvases hold road pixels in the light flavour's
 * road colours (counted with the incident clusters off) and street-name pixels in the label pane —
 * checked in the pixels, not the DOM — while every request the page makes to a non-loopback host is
 * blocked. With the heat layer on, the street names keep their colour pixel for pixel (they stay
 * readable over the incidents); the map and the PDF credit the streets' source.
 *
 * Screenshots: e2e/artifacts/basemap-demo-z15.png, basemap-demo-z15-heat.png.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  blockTheInternet,
  DEMO_DOWNTOWN,
  comparePngs,
  DARK_ROADS,
  expectStreets,
  LABEL,
  mapAt,
  mapPixels,
  mapShot,
  ROAD,
  roadPixelsOf,
  startDemoWithStreets,
} from './support/basemapPixels';
import { ARTIFACTS_DIR } from './support/paths';
import { greyPixels } from './support/ppmPixels';

/** The demo archive's attribution (src-sim/demo/data, OpenStreetMap's): the map and the PDF show it. */
const DEMO_ATTRIBUTION = '© OpenStreetMap contributors';

/** Starts the demo and waits for its streets to land and the map to show them at zoom 15. */
async function demoAtZoom15(page: Page): Promise<void> {
  await startDemoWithStreets(page);
  await mapAt(page, DEMO_DOWNTOWN, 15);
}

test('the demo map at zoom 15 draws the downloaded streets and their names, offline', async ({ page }) => {
  test.setTimeout(180_000);
  const blocked = await blockTheInternet(page);
  await demoAtZoom15(page);

  // Roads in the road colour over the land, and street names in the label colour.
  await expectStreets(page);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-demo-z15.png') });
  expect(blocked).toEqual([]);

  await test.step('street names stay readable over the incident layer (heat and clusters on)', async () => {
    // The same view without and with the heat layer: the heat tints much of the map, yet the
    // street names (drawn in a pane above the incidents) keep their colour, pixel for pixel.
    const heat = page.getByRole('checkbox', { name: 'Heat' });
    await heat.uncheck();
    const before = await mapShot(page);
    await heat.check();
    await expect.poll(() => page.evaluate(() => window.__blotterPerf?.heatDraws ?? 0)).toBeGreaterThan(0);
    const compared = () => mapShot(page).then((after) => comparePngs(page, before, after, LABEL, 12));
    await expect.poll(async () => ((c) => c.changed / c.pixels)(await compared())).toBeGreaterThan(0.2);
    const seen = await compared();
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-demo-z15-heat.png') });
    expect(seen.marked).toBeGreaterThan(150);
    expect(seen.kept / seen.marked).toBeGreaterThan(0.9);
    await heat.uncheck();
  });

  await test.step('the map credits the source of its streets', async () => {
    await expect(page.getByTestId('map-attribution')).toContainText(DEMO_ATTRIBUTION);
  });

  await test.step('an incident’s panel has a mini-map with the streets around it', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Table' }).click();
    await page.locator('[role="row"][aria-rowindex="2"]').click();
    const mini = page.getByTestId('incident-panel').getByTestId('incident-minimap');
    await expect(mini).toHaveAttribute('data-streets', 'on');
    await expect(mini.getByTestId('incident-minimap-attribution')).toContainText(DEMO_ATTRIBUTION);
    await mini.scrollIntoViewIfNeeded();
    await expect
      .poll(async () => roadPixelsOf(page, await mini.screenshot()), { timeout: 30_000 })
      .toBeGreaterThan(2_000);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-incident-minimap.png') });
    expect(blocked).toEqual([]);
  });

  await test.step('the PDF report’s first page has the streets under its map', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Export' }).click();
    await page.getByRole('radio', { name: /^PDF report/ }).check();
    await page.getByRole('button', { name: /^(Export|Create the PDF report)/ }).click();
    await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
      timeout: 60_000,
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-download').click(),
    ]);
    const pdf = path.join(ARTIFACTS_DIR, 'basemap-report.pdf');
    await download.saveAs(pdf);
    const prefix = path.join(ARTIFACTS_DIR, 'basemap-report');
    execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
    execFileSync('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
    // The map's land is the basemap's grey (background #cccccc, earth #e2dfda), which the
    // streetless report map (#f7f8fa) never has; a few thousand pixels of it means streets.
    expect(greyPixels(readFileSync(`${prefix}.ppm`))).toBeGreaterThan(10_000);
    // …and credits their source, as the map does.
    const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', pdf, '-'], { encoding: 'utf8' });
    expect(text.replace(/\s+/g, ' ')).toContain(DEMO_ATTRIBUTION);
    expect(blocked).toEqual([]);
  });
});

test.describe('in the dark scheme', () => {
  test.use({ colorScheme: 'dark' });

  test('the streets take the dark flavour', async ({ page }) => {
    test.setTimeout(180_000);
    const blocked = await blockTheInternet(page);
    await demoAtZoom15(page);
    await expect
      .poll(async () => (await mapPixels(page, DARK_ROADS)).reduce((a, b) => a + b), { timeout: 30_000 })
      .toBeGreaterThan(5_000);
    expect((await mapPixels(page, [ROAD]))[0]).toBeLessThan(500); // no light-flavour roads
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-demo-z15-dark.png') });
    expect(blocked).toEqual([]);
  });
});
