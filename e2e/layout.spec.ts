/**
 * Layout over a seeded archive, as a newcomer sees it:
 *
 * - Areas: the coverage strip draws its days (visible segments inside the strip), and no stray
 *   element runs down the whole window (a class that History's stylesheet also defined once did).
 * - History and Export at 1280×800: the shell never scrolls; the view scrolls inside it, and the
 *   navigation and the status bar stay on screen.
 */
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { navLink, openView } from './support/app';
import { seedMapData } from './support/mapSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 2000);
    await use(dataDir);
  },
});

/** Elements at most 4 px wide (or tall) that reach across most of the window: stray lines. */
const strayLines = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(
        ({ box }) =>
          (box.width > 0 && box.width <= 4 && box.height >= window.innerHeight * 0.8) ||
          (box.height > 0 && box.height <= 4 && box.width >= window.innerWidth * 0.9),
      )
      .map(({ el }) => `${el.tagName.toLowerCase()}.${el.className}`),
  );

/** What a user checks: the page itself does not scroll, and the chrome is where it was. */
async function expectShellFixed(page: Page) {
  const sizes = await page.evaluate(() => {
    window.scrollTo(0, 10_000);
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollHeight: root.scrollHeight, scrollY: window.scrollY, inner: window.innerHeight };
  });
  expect(sizes.scrollHeight).toBe(sizes.inner);
  expect(sizes.scrollY).toBe(0);
  // Scroll the view itself to its end: the navigation and the status bar stay in the viewport.
  await page.locator('main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
  for (const chrome of [page.getByRole('navigation', { name: 'Views' }), page.getByRole('contentinfo')]) {
    await expect(chrome).toBeInViewport({ ratio: 1 });
  }
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
}

test('Areas: the coverage strip shows its days and nothing runs down the window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'History'); // History's own coverage band is on the page first, as a user would go
  await expect(page.getByTestId('coverage-band')).toBeVisible();
  await openView(page, 'Areas');
  const strip = page.getByTestId('coverage-strip').first();
  await expect(strip).toBeVisible();
  const days = strip.getByRole('list', { name: /^Coverage by day/ });
  const box = await days.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(8);
  const segments = days.getByRole('listitem');
  expect(await segments.count()).toBeGreaterThan(0);
  let covered = 0;
  for (const segment of await segments.all()) {
    const s = await segment.boundingBox();
    if (!s || !box) throw new Error('a coverage segment has no box');
    // Inside the strip, as tall as it (less its border), and painted.
    expect(s.y).toBeGreaterThanOrEqual(box.y);
    expect(s.y + s.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
    expect(s.height).toBeGreaterThan(box.height - 4);
    expect(s.width).toBeGreaterThan(0);
    covered += s.width;
    const paint = await segment.evaluate((el) => {
      const css = getComputedStyle(el);
      return css.backgroundImage !== 'none' || css.backgroundColor !== 'rgba(0, 0, 0, 0)';
    });
    expect(paint).toBe(true);
  }
  expect(covered).toBeGreaterThan((box?.width ?? 0) * 0.9);
  expect(await strayLines(page)).toEqual([]);
});

test('History and Export scroll inside the view; the sidebar and the status bar stay', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const view of ['History', 'Export'] as const) {
    await openView(page, view);
    await expect(navLink(page, view)).toHaveAttribute('aria-current', 'page');
    await expectShellFixed(page);
    expect(await strayLines(page)).toEqual([]);
  }
});
