/**
 * One look (issue 26, item 7): the Analysis form, the alert rule and delivery forms, the layer
 * import and the Layers panel, and Settings › Map use the app's own controls — every field, select
 * and button in the app's font and corner radius (buttons that are links aside), checkboxes and
 * radios in its accent — never the browser's bare controls. Each form is checked in every state
 * that shows other fields (each analysis, each rule condition, a boundary file's preview, a kept
 * layer, each street layer source).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { seedMapData } from './support/mapSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 1500);
    await use(dataDir);
  },
});

/** The controls inside `root` that are not in the app's look, one line each (empty: all are). */
const bareControls = (root: Locator) =>
  root.evaluate((el) => {
    const bodyFont = getComputedStyle(document.body).fontFamily;
    const radius = getComputedStyle(document.documentElement).getPropertyValue('--radius').trim();
    return [...el.querySelectorAll<HTMLElement>('input, select, textarea, button')]
      .filter((c) => c.getClientRects().length > 0)
      .flatMap((c) => {
        const s = getComputedStyle(c);
        const type = c instanceof HTMLInputElement ? c.type : '';
        const what = `${c.tagName.toLowerCase()}${type ? `[${type}]` : ''} "${(c.getAttribute('aria-label') ?? c.textContent ?? '').trim().slice(0, 30)}"`;
        const problems: string[] = [];
        if (type === 'checkbox' || type === 'radio') {
          if (s.accentColor === 'auto') problems.push('browser accent');
        } else {
          if (s.fontFamily !== bodyFont) problems.push(`font ${s.fontFamily}`);
          if (type !== 'file' && !c.classList.contains('link-button') && s.borderTopLeftRadius !== radius)
            problems.push(`corner ${s.borderTopLeftRadius}`);
        }
        return problems.length > 0 ? [`${what}: ${problems.join(', ')}`] : [];
      });
  });

async function expectAppLook(root: Locator, state: string): Promise<void> {
  await expect(root).toBeVisible();
  expect(await bareControls(root), state).toEqual([]);
}

const BEATS = {
  type: 'FeatureCollection',
  features: [0, 1].map((i) => ({
    type: 'Feature',
    properties: { BEAT: `Beat ${i}` },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [-87.7 + i * 0.05, 41.8],
          [-87.65 + i * 0.05, 41.8],
          [-87.65 + i * 0.05, 41.85],
          [-87.7 + i * 0.05, 41.85],
          [-87.7 + i * 0.05, 41.8],
        ],
      ],
    },
  })),
};

async function analysisForm(page: Page): Promise<void> {
  await openView(page, 'Analysis');
  const form = page.getByRole('form', { name: 'Analysis settings' });
  const kind = form.getByLabel('Analysis to run');
  for (const option of await kind.locator('option').allTextContents()) {
    await kind.selectOption({ label: option });
    await expectAppLook(form, `Analysis: ${option}`);
  }
}

test('every form uses the app’s own controls', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });

  await test.step('Analysis', () => analysisForm(page));

  await test.step('Alerts: the rule form in each condition, and delivery', async () => {
    await openView(page, 'Alerts');
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New alert rule' });
    const condition = form.getByLabel('Alert when');
    for (const option of await condition.locator('option').allTextContents()) {
      await condition.selectOption({ label: option });
      await expectAppLook(form, `rule form: ${option}`);
    }
    await expectAppLook(page.getByTestId('delivery-settings'), 'delivery');
  });

  await test.step('Map: the Layers panel, a boundary file’s preview, a kept layer', async () => {
    await openView(page, 'Map');
    await page.getByRole('button', { name: /^Layers/ }).click();
    const panel = page.getByTestId('layers-panel');
    await expectAppLook(panel, 'Layers panel');
    await page.getByTestId('boundary-file').setInputFiles({
      name: 'beats.geojson',
      mimeType: 'application/geo+json',
      buffer: Buffer.from(JSON.stringify(BEATS)),
    });
    const preview = page.getByTestId('boundary-preview');
    await expect(preview).toContainText('beats.geojson: 2 features');
    await expectAppLook(panel, 'boundary preview');
    await preview.getByLabel('Layer name').fill('Beats');
    await preview.getByRole('button', { name: 'Keep as reference layer' }).click();
    await expect(page.getByTestId('boundary-outcome')).toContainText('Layer "Beats" kept');
    await expect(panel.getByLabel('Feature')).toBeVisible();
    await expectAppLook(panel, 'Layers panel with a layer');
  });

  await test.step('Settings › Map, each street layer source', async () => {
    await openView(page, 'Settings');
    const map = page.getByRole('region', { name: 'Map', exact: true });
    for (const radio of await map.getByRole('radio').all()) {
      await radio.check();
      await expectAppLook(
        map,
        `Settings › Map: ${await radio.evaluate((r) => r.parentElement?.textContent)}`,
      );
    }
  });
});
