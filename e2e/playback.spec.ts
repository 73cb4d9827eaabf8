/**
 * Time playback on the Map view (issue 15, item 7): the slider shows a period in words; its number
 * of incidents is what countIncidents answers for the filters with that period's dates; play
 * advances the period, pause stops it; day steps work as week steps do; the clusters make way.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { seedMapData } from './support/mapSeed';
import { ARTIFACTS_DIR } from './support/paths';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 3000);
    await use(dataDir);
  },
});

/** countIncidents from the page, as its own bridge calls it. */
async function countFor(page: Page, filters: Record<string, unknown>): Promise<number> {
  const answer = await page.evaluate(async (f) => {
    const res = await fetch('/api/call/countIncidents', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ filters: f }),
    });
    return (await res.json()) as { ok: boolean; value: { total: number } };
  }, filters);
  expect(answer.ok).toBe(true);
  return answer.value.total;
}

/** The legend's "In view" column, added up over the types shown. */
async function legendInView(page: Page): Promise<number> {
  const cells = await page.getByTestId('map-legend').locator('[data-in-view]').allTextContents();
  return cells.reduce((sum, text) => sum + Number(text.replace(/,/g, '') || 0), 0);
}

/** The period on the slider: its days, its count, and the count the engine gives for its filter. */
async function shown(page: Page) {
  const panel = page.getByTestId('playback');
  const from = (await panel.getAttribute('data-from')) as string;
  const to = (await panel.getAttribute('data-to')) as string;
  const count = Number(await panel.getAttribute('data-count'));
  // The map's filters are the defaults (the last 90 days: every seeded incident); the period's
  // dates replace the preset.
  return {
    from,
    to,
    count,
    counted: await countFor(page, { from, to }),
    index: await panel.getAttribute('data-index'),
  };
}

test('play steps through the weeks, each drawing the incidents the counts call finds; pause stops', async ({
  page,
}) => {
  await openView(page, 'Map');
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Time playback' }).click();
  const panel = page.getByTestId('playback');
  await expect(panel).toHaveAttribute('data-from', /^\d{4}-\d{2}-\d{2}$/);
  await expect(
    panel.getByRole('group', { name: 'Step' }).getByRole('button', { name: 'Week' }),
  ).toHaveAttribute('aria-pressed', 'true');
  // The clusters make way for the period's incidents.
  const clusterPane = page.locator('.leaflet-blotter-clusters-pane');
  await expect(clusterPane).toHaveCSS('visibility', 'hidden');
  await expect(page.locator('.leaflet-blotter-playback-pane canvas')).toHaveCount(1);

  const first = await shown(page);
  expect(first.count).toBe(first.counted);
  // The view fits the areas: every incident of the period is drawn on the playback canvas.
  await expect(panel).toHaveAttribute('data-drawn', String(first.count));
  expect(first.count).toBeGreaterThan(0);
  // The legend's "In view" counts the period's incidents, not the clusters'.
  const legend = page.getByTestId('map-legend');
  await expect(legend).toHaveAttribute('data-in-view-of', 'period');
  await expect.poll(() => legendInView(page)).toBe(first.count);
  const label = page.getByTestId('playback-period');
  await expect(label).toHaveText(/^Week of /);
  const firstLabel = await label.textContent();

  await panel.getByRole('button', { name: /Play/ }).click();
  await expect(panel).toHaveAttribute('data-index', '2', { timeout: 10_000 });
  await panel.getByRole('button', { name: /Pause/ }).click();
  await expect(panel).toHaveAttribute('data-playing', 'false');
  const paused = await shown(page);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'map-playback.png') });
  expect(await label.textContent()).not.toBe(firstLabel);
  expect(paused.count).toBe(paused.counted);
  await expect(panel).toHaveAttribute('data-drawn', String(paused.count));
  expect(paused.from > first.from).toBe(true);
  // Paused: three play intervals later the period is the same.
  await page.waitForTimeout(2500);
  expect(await panel.getAttribute('data-index')).toBe(paused.index);

  // Day steps: a day forward is the next day, counted the same way.
  await panel.getByRole('group', { name: 'Step' }).getByRole('button', { name: 'Day' }).click();
  await panel.getByRole('button', { name: /Step forward/ }).click();
  await expect(panel).toHaveAttribute('data-index', '1');
  const day = await shown(page);
  expect(day.from).toBe(day.to);
  expect(day.count).toBe(day.counted);
  await expect(page.getByTestId('playback-count')).toContainText(`${day.count} incidents`);

  await panel.getByRole('button', { name: 'Close time playback' }).click();
  await expect(clusterPane).toHaveCSS('visibility', 'visible');
  await expect(page.locator('.leaflet-blotter-playback-pane canvas')).toHaveCount(0);
  // Closed: the legend counts the map's layers again (every seeded incident is in the view).
  await expect(legend).toHaveAttribute('data-in-view-of', 'map');
  await expect.poll(() => legendInView(page)).toBeGreaterThan(day.count);
});

test('playback has a speed control, the legend counts the period shown, and periods start inside the filter’s dates', async ({
  page,
}) => {
  await openView(page, 'Map');
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 30_000 });
  const legend = page.getByTestId('map-legend');
  const totalText = await legend.locator('header strong').textContent();
  await page.getByRole('button', { name: 'Time playback' }).click();
  const panel = page.getByTestId('playback');
  await expect(panel).toHaveAttribute('data-from', /^\d{4}-\d{2}-\d{2}$/);

  // The legend's counts and total are the period's, not the whole filter's.
  const first = await shown(page);
  expect(first.count).toBeGreaterThan(0);
  await expect(legend.locator('header strong')).toHaveText(
    `${first.count.toLocaleString('en-US')} incidents`,
  );
  const matching = async () =>
    (await legend.locator('[data-type]').allTextContents()).reduce(
      (s, t) => s + Number(t.replace(/,/g, '') || 0),
      0,
    );
  await expect.poll(matching).toBe(first.count);
  const theft = Number(
    ((await legend.locator('[data-type="Theft"]').textContent()) ?? '0').replace(/,/g, ''),
  );
  expect(theft).toBe(await countFor(page, { from: first.from, to: first.to, types: ['Theft'] }));

  // The first week starts on the first day covered (not the Monday before it).
  const step = panel.getByRole('group', { name: 'Step' });
  await step.getByRole('button', { name: 'Day' }).click();
  const firstDay = await panel.getAttribute('data-from');
  await step.getByRole('button', { name: 'Week' }).click();
  await expect(panel).toHaveAttribute('data-from', firstDay!);

  // Speed: at 4× a period stays 0.2 s, so four steps take under a second (1× takes 3.2 s).
  const speed = panel.getByRole('group', { name: 'Speed' });
  await expect(speed.getByRole('button', { name: '1×' })).toHaveAttribute('aria-pressed', 'true');
  await speed.getByRole('button', { name: '4×' }).click();
  await expect(panel).toHaveAttribute('data-speed', '4');
  await panel.getByRole('button', { name: /Play/ }).click();
  // Playing on while the check looks, so "at least four steps" (not exactly the fourth).
  await expect
    .poll(async () => Number(await panel.getAttribute('data-index')), { timeout: 2_500, intervals: [100] })
    .toBeGreaterThanOrEqual(4);
  await panel.getByRole('button', { name: /Pause/ }).click();
  const paused = await shown(page);
  await expect(legend.locator('header strong')).toHaveText(
    `${paused.count.toLocaleString('en-US')} incidents`,
  );

  await panel.getByRole('button', { name: 'Close time playback' }).click();
  await expect(legend.locator('header strong')).toHaveText(totalText!);
});
