/**
 * The demo city's streets, offline: the demo downloads its area's extract from the simulator (a
 * loopback PMTiles with range requests) through the basemap download, and the Map view draws it
 * with protomaps-leaflet. At zoom 15 the rendered canvases hold road pixels in the light flavour's
 * road colour and street-name pixels in the label pane — checked in the pixels, not the DOM — while
 * every request the page makes to a non-loopback host is blocked.
 *
 * Screenshot: e2e/artifacts/basemap-demo-z15.png.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForAppReady } from './support/appReady';
import { ARTIFACTS_DIR } from './support/paths';

const CHICAGO = { lat: 41.8781, lon: -87.6298 };
/** @protomaps/basemaps light flavour: major roads and minor_b are white; street names #91888b. */
const ROAD = [255, 255, 255];
/** roads_label_minor / roads_label_major (#91888b / #938a8d). */
const LABEL = [0x92, 0x89, 0x8c];
/** The dark flavour's roads: major and minor_a #3d3d3d, minor_b #333333. */
const DARK_ROADS = [
  [0x3d, 0x3d, 0x3d],
  [0x33, 0x33, 0x33],
];

const isLoopback = (url: URL): boolean =>
  ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname) ||
  url.protocol === 'data:' ||
  url.protocol === 'blob:';

/**
 * Pixel counts in the rendered page, not the DOM: a screenshot of the map's left part (clear of the
 * toolbar, the legend and the attribution), decoded in the page; pixels within `tol` of each colour.
 */
async function mapPixels(page: Page, colours: number[][], tol = 2): Promise<number[]> {
  const box = await page.getByTestId('map').boundingBox();
  if (!box) throw new Error('the map has no box');
  const png = await page.screenshot({
    clip: { x: box.x + 50, y: box.y + 80, width: box.width * 0.7 - 50, height: box.height - 110 },
  });
  return page.evaluate(
    async ({ b64, colours, tol }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = document.createElement('canvas');
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = colours.map(() => 0);
      for (let i = 0; i < data.length; i += 4) {
        colours.forEach((c, k) => {
          if (
            Math.abs(data[i]! - c[0]!) <= tol &&
            Math.abs(data[i + 1]! - c[1]!) <= tol &&
            Math.abs(data[i + 2]! - c[2]!) <= tol
          )
            counts[k]!++;
        });
      }
      return counts;
    },
    { b64: png.toString('base64'), colours, tol },
  );
}

/** Blocks (and records) every request the page makes to a non-loopback host. */
async function blockTheInternet(page: Page): Promise<string[]> {
  const blocked: string[] = [];
  await page.context().route(
    (url) => !isLoopback(url),
    (route) => {
      blocked.push(route.request().url());
      return route.abort();
    },
  );
  return blocked;
}

/** Starts the demo and waits for its streets to land and the map to show them at zoom 15. */
async function demoAtZoom15(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
  await expect(page.getByTestId('demo-banner')).toBeVisible({ timeout: 60_000 });
  await waitForAppReady(page);
  // The download lands by itself; the map's attribution names the source once it draws it.
  await expect(page.getByTestId('map-attribution')).toContainText('Synthetic demo streets', {
    timeout: 90_000,
  });
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
  await page.evaluate(({ lat, lon }) => window.__blotterMapTest?.setView(lat, lon, 15), CHICAGO);
}

test('the demo map at zoom 15 draws the downloaded streets and their names, offline', async ({ page }) => {
  test.setTimeout(180_000);
  const blocked = await blockTheInternet(page);
  await demoAtZoom15(page);

  // Roads in the road colour over the land, and street names in the label colour.
  await expect
    .poll(async () => (await mapPixels(page, [ROAD]))[0], { timeout: 30_000 })
    .toBeGreaterThan(5_000);
  await expect
    .poll(async () => (await mapPixels(page, [LABEL], 12))[0], { timeout: 30_000 })
    .toBeGreaterThan(150);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-demo-z15.png') });
  expect(blocked).toEqual([]);

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
    expect(greyPixels(readFileSync(`${prefix}.ppm`))).toBeGreaterThan(20_000);
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

/** Pixels of a binary PPM (P6) that are neutral greys between #c4c4c4 and #e0e0e0. */
function greyPixels(ppm: Buffer): number {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a binary PPM');
  let n = 0;
  for (let i = header[0].length; i + 2 < ppm.length; i += 3) {
    const [r, g, b] = [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!];
    if (Math.min(r, g, b) >= 0xc4 && Math.max(r, g, b) <= 0xe0 && Math.max(r, g, b) - Math.min(r, g, b) <= 8)
      n++;
  }
  return n;
}
