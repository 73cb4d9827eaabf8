/**
 * The basemap journeys' helpers: the protomaps flavours' colours, pixel counts in the rendered page
 * (a screenshot decoded in the page, never the DOM), blocking every non-loopback request, and the
 * demo started until its downloaded streets are drawn.
 */
import { expect, type Page } from '@playwright/test';
import { waitForAppReady } from './appReady';

/** The first demo area's centre: downtown San Francisco (src-main/demo/config.ts). */
export const DEMO_DOWNTOWN = { lat: 37.7845, lon: -122.411 };
/** @protomaps/basemaps light flavour: major roads and minor_b are white; street names #91888b. */
export const ROAD = [255, 255, 255];
/**
 * Road pixels of the light flavour: neutral greys from #e6e6e6 to white — the road fills (white,
 * minor_a #ebebeb) and their anti-aliased edges over the casing (#e0e0e0) — which neither the
 * flavour's earth (#e2dfda) nor the bundled land (#f4f1ea) nor water is.
 */
export async function roadPixels(page: Page): Promise<number> {
  return roadPixelsOf(page, await mapShot(page));
}

/** Road pixels (see roadPixels) of any screenshot. */
export async function roadPixelsOf(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const lo = Math.min(d[i]!, d[i + 1]!, d[i + 2]!);
      const hi = Math.max(d[i]!, d[i + 1]!, d[i + 2]!);
      if (lo >= 0xe6 && hi - lo <= 3) n++;
    }
    return n;
  }, png.toString('base64'));
}
/** roads_label_minor / roads_label_major (#91888b / #938a8d). */
export const LABEL = [0x92, 0x89, 0x8c];
/** The dark flavour's roads: major and minor_a #3d3d3d, minor_b #333333. */
export const DARK_ROADS = [
  [0x3d, 0x3d, 0x3d],
  [0x33, 0x33, 0x33],
];

const isLoopback = (url: URL): boolean =>
  ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname) ||
  url.protocol === 'data:' ||
  url.protocol === 'blob:';

/** Pixels of an RGBA screenshot within `tol` of each colour, counted in the page. */
export async function pngPixels(page: Page, png: Buffer, colours: number[][], tol = 2): Promise<number[]> {
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

/**
 * Pixel counts in the rendered map, not the DOM: a screenshot of the map's left part (clear of the
 * toolbar, the legend, the buttons along the bottom and the attribution); pixels within `tol` of
 * each colour.
 */
export async function mapPixels(page: Page, colours: number[][], tol = 2): Promise<number[]> {
  return pngPixels(page, await mapShot(page), colours, tol);
}

/**
 * Two screenshots of the same map compared in the page: how many pixels differ, and of the pixels
 * within `tol` of `colour` in the first, how many are still that colour in the second.
 */
export async function comparePngs(
  page: Page,
  before: Buffer,
  after: Buffer,
  colour: number[],
  tol: number,
): Promise<{ pixels: number; changed: number; marked: number; kept: number }> {
  return page.evaluate(
    async ({ a, b, colour, tol }) => {
      const decode = async (b64: string) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = document.createElement('canvas');
        canvas.width = bitmap.width;
        canvas.height = bitmap.height;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      };
      const [x, y] = [await decode(a), await decode(b)];
      const near = (d: Uint8ClampedArray, i: number) =>
        Math.abs(d[i]! - colour[0]!) <= tol &&
        Math.abs(d[i + 1]! - colour[1]!) <= tol &&
        Math.abs(d[i + 2]! - colour[2]!) <= tol;
      const out = { pixels: x.length / 4, changed: 0, marked: 0, kept: 0 };
      for (let i = 0; i < x.length; i += 4) {
        if (Math.abs(x[i]! - y[i]!) + Math.abs(x[i + 1]! - y[i + 1]!) + Math.abs(x[i + 2]! - y[i + 2]!) > 12)
          out.changed++;
        if (near(x, i)) {
          out.marked++;
          if (near(y, i)) out.kept++;
        }
      }
      return out;
    },
    { a: before.toString('base64'), b: after.toString('base64'), colour, tol },
  );
}

/** The map's counted region as a PNG (see mapPixels). */
export async function mapShot(page: Page): Promise<Buffer> {
  const box = await page.getByTestId('map').boundingBox();
  if (!box) throw new Error('the map has no box');
  return page.screenshot({
    clip: { x: box.x + 50, y: box.y + 80, width: box.width * 0.7 - 50, height: box.height - 150 },
  });
}

/** Blocks (and records) every request the page makes to a non-loopback host. */
export async function blockTheInternet(page: Page): Promise<string[]> {
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

/** Waits until the map draws the demo's downloaded streets (its attribution names their source). */
export async function waitForDemoStreets(page: Page): Promise<void> {
  await expect(page.getByTestId('map-attribution')).toContainText('© OpenStreetMap', {
    timeout: 90_000,
  });
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
}

/** Starts the demo from the welcome screen and waits for its streets to land and be drawn. */
export async function startDemoWithStreets(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
  await expect(page.getByTestId('demo-banner')).toBeVisible({ timeout: 60_000 });
  await waitForAppReady(page);
  await waitForDemoStreets(page);
}

export async function mapAt(page: Page, at: { lat: number; lon: number }, zoom: number): Promise<void> {
  await page.evaluate(({ lat, lon, zoom }) => window.__blotterMapTest?.setView(lat, lon, zoom), {
    ...at,
    zoom,
  });
}

/**
 * Polls until the map shows at least `roads` road pixels and `labels` street-name pixels, counted
 * with the incident clusters switched off (their white discs would pass for roads), then back on.
 */
export async function expectStreets(page: Page, roads = 12_000, labels = 150): Promise<void> {
  const clusters = page.getByRole('checkbox', { name: 'Clusters' });
  await clusters.uncheck();
  await expect.poll(() => roadPixels(page), { timeout: 30_000 }).toBeGreaterThan(roads);
  await expect
    .poll(async () => (await mapPixels(page, [LABEL], 12))[0], { timeout: 30_000 })
    .toBeGreaterThan(labels);
  await clusters.check();
}
