/**
 * Accessibility of every view (issue 26): axe-core over the demo at 1280×720 and 1440×900 — each
 * view as it opens, and the Map's type picker, the Map's Layers panel and the Alerts rule form open
 * — with no serious or critical violation. Besides axe's defaults:
 *
 * - the weekday buttons' names match their visible labels (axe's label-content-name-mismatch);
 * - "Skip to map" sits in a landmark;
 * - "An API key is set" meets 4.5:1 contrast (axe's color-contrast; the demo has a key).
 *
 * And every view in the dark theme, over a seeded archive.
 *
 * Screenshots of each view at both sizes: artifacts/a11y-<view>-<w>x<h>.png.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedMapData } from './support/mapSeed';
import { openView, section, VIEW_LABELS } from './support/app';
import { waitForAppReady } from './support/appReady';
import { ARTIFACTS_DIR } from './support/paths';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** The serious and critical violations axe finds, one line each (rule, impact, where). */
async function seriousViolations(page: Page, build: (axe: AxeBuilder) => AxeBuilder = (a) => a) {
  const result = await build(
    new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }),
  ).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.afterEach(async ({ dataDir }) => {
  await rm(`${dataDir}-demo`, { recursive: true, force: true });
});

test('every view of the demo, at 1280×720 and 1440×900, has no serious or critical axe violation', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize(SIZES[0]);
  await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
  const banner = page.getByTestId('demo-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 90_000 });

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`;
    await page.setViewportSize(size);
    await page.goto(page.url().replace(/#.*$/, '#/map'));
    await page.reload();
    await waitForAppReady(page);

    // "Skip to map" inside a landmark.
    const landmark = await page
      .locator('.skip-link')
      .evaluate(
        (link) =>
          link.closest(
            'header, nav, main, aside, footer, [role="banner"], [role="navigation"], [role="main"]',
          )?.tagName ?? null,
      );
    expect(landmark, 'the skip link’s landmark').not.toBeNull();

    for (const view of VIEW_LABELS) {
      await openView(page, view);
      if (view === 'Map')
        await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
      await expect(page.getByTestId('filtered-count').or(page.locator('body')).first()).toBeVisible();
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `a11y-${view.toLowerCase()}-${label}.png`) });
      expect.soft(await seriousViolations(page), `${view} at ${label}`).toEqual([]);
    }

    // The Map's popovers and panels, open.
    await openView(page, 'Map');
    const bar = page.getByRole('region', { name: 'Filters' });
    await bar.getByRole('button', { name: /^Types:/ }).click();
    await expect(page.getByRole('dialog', { name: 'Crime types' })).toBeVisible();
    expect.soft(await seriousViolations(page), `the type picker at ${label}`).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Layers/ }).click();
    await expect(page.getByTestId('layers-panel')).toBeVisible();
    expect.soft(await seriousViolations(page), `the Layers panel at ${label}`).toEqual([]);
    await page.getByRole('button', { name: /^Layers/ }).click();

    // The Alerts view's rule form.
    await openView(page, 'Alerts');
    await page.getByRole('button', { name: 'New rule' }).click();
    await expect(page.getByRole('form', { name: 'New alert rule' })).toBeVisible();
    expect.soft(await seriousViolations(page), `the rule form at ${label}`).toEqual([]);
  }

  // "An API key is set" (the demo's key): 4.5:1 at least.
  await openView(page, 'Settings');
  await expect(section(page, 'API key').getByTestId('key-state')).toHaveText('An API key is set');
  expect(
    await seriousViolations(page, (axe) =>
      axe.include('[data-testid="key-state"]').withRules(['color-contrast']),
    ),
  ).toEqual([]);
});

const seeded = test.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 1000);
    await use(dataDir);
  },
});

seeded('every view in the dark theme has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize(SIZES[0]);
  for (const view of VIEW_LABELS) {
    await openView(page, view);
    if (view === 'Map')
      await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
    expect.soft(await seriousViolations(page), `${view}, dark`).toEqual([]);
  }
});
