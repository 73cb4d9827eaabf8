/**
 * The analyst's journey against the simulator (in this process, on loopback): configure the API,
 * add an area over a simulator city, see its plan, sync it, filter by type and time of day and
 * watch the counts change, open an incident and fetch its description; then stop the simulator,
 * keep browsing offline, start it again on the same port and resume. A screenshot of each step
 * goes to e2e/artifacts/workspace-*.png.
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startSimulator, type Simulator, type SimulatorOptions } from '../src-sim/index';
import { expect, test } from './fixtures';
import { connectEnterprise, openSyncPlan, openView } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const KEY = 'workspace-e2e-key';
const RATE = 6000;
const SIM_OPTIONS: SimulatorOptions = {
  seed: 7,
  scale: 'small',
  keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE }],
};

let sim: Simulator | null = null;

test.afterEach(async () => {
  await sim?.close();
  sim = null;
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS_DIR, `workspace-${name}.png`) });

/** The filter bar's total once its query has answered. */
async function filteredCount(page: Page): Promise<number> {
  const output = page.getByTestId('filtered-count');
  await expect(output).toHaveAttribute('data-loading', 'false');
  const text = (await output.locator('strong').textContent()) ?? '';
  return Number(text.replace(/,/g, ''));
}

/** Waits until the filter bar's total differs from `before`, and returns it. */
async function countChangedFrom(page: Page, before: number): Promise<number> {
  let now = before;
  await expect
    .poll(async () => {
      now = await filteredCount(page);
      return now;
    })
    .not.toBe(before);
  return now;
}

function areaCard(page: Page): Locator {
  return page.getByTestId('area-card').first();
}

async function syncFromCard(page: Page, card: Locator, screenshot?: string): Promise<void> {
  const plan = await openSyncPlan(card);
  await expect(plan).toContainText(/requests? — .* at your plan's 6,000 requests a minute/);
  if (screenshot) await shot(page, screenshot);
  await plan.getByRole('button', { name: 'Start sync' }).click();
}

test('draw an area, sync it, filter, open an incident, go offline and resume', async ({ page }) => {
  test.setTimeout(240_000);
  sim = await startSimulator(SIM_OPTIONS);
  const port = sim.port;

  await test.step('configure the API in Settings: base URL, Enterprise rate, key', async () => {
    await connectEnterprise(page, { url: sim?.url ?? '', rate: RATE, key: KEY });
    await shot(page, '01-settings');
  });

  await test.step('draw an area over Denver on the map, found through the bundled gazetteer', async () => {
    await openView(page, 'Areas');
    const form = page.getByRole('form', { name: 'Add an area' });
    await expect(form.getByRole('button', { name: 'Draw on the map' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await form.getByLabel('Go to a city or ZIP code').fill('Denver, CO');
    await form.getByRole('button', { name: 'Denver, CO', exact: true }).click();
    await expect(form.getByLabel('Name')).toHaveValue('Denver, CO');
    const map = form.getByTestId('area-draw-map');
    await expect(map).toHaveAttribute('data-draw-mode', 'circle');
    const box = await map.boundingBox();
    if (!box) throw new Error('The drawing map has no size.');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    // A circle: click its centre, then its edge (~100 px at zoom 13 is about a mile).
    await expect(async () => {
      await page.mouse.click(x, y);
      await page.mouse.move(x + 50, y, { steps: 4 });
      await page.mouse.click(x + 100, y);
      await expect(form.getByTestId('drawn-shape')).toContainText('Drawn: Circle of', { timeout: 1_500 });
    }).toPass({ timeout: 20_000 });
    await expect(form.getByTestId('drawn-shape')).toContainText(/Circle of 0\.\d+ mi|Circle of 1(\.\d+)? mi/);
    await form.getByLabel('Name').fill('Denver downtown');
    await shot(page, '02-draw-area');
    await form.getByRole('button', { name: 'Add area' }).click();
    await expect(areaCard(page).getByRole('heading', { name: 'Denver downtown', exact: true })).toBeVisible();
  });

  await test.step('see the plan, sync, and watch the progress complete', async () => {
    const card = areaCard(page);
    await syncFromCard(page, card, '03-plan');
    await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
    await expect(card.getByTestId('area-incidents')).toHaveText(/^[1-9][\d,]* incidents stored$/);
    await expect(card.getByTestId('coverage-strip')).toContainText('complete');
    await expect(page.getByTestId('link-status')).toHaveText('Online');
    await shot(page, '04-synced');
  });

  await test.step('see the incidents on the map, clustered', async () => {
    await openView(page, 'Map');
    await page.getByRole('button', { name: 'All history' }).click();
    expect(await filteredCount(page)).toBeGreaterThan(0);
    await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 30_000 });
    await shot(page, '05-map');
  });

  let typed = 0;
  let night = 0;
  await test.step('filter by type and time of day and watch the counts change', async () => {
    await openView(page, 'Table');
    const all = await filteredCount(page);
    expect(all).toBeGreaterThan(50);
    await expect(page.getByRole('status').filter({ hasText: 'newest first' })).toContainText(
      `${all.toLocaleString('en-US')} incidents`,
    );
    await page.getByRole('button', { name: /^Types:/ }).click();
    await page
      .getByRole('dialog', { name: 'Crime types' })
      .getByRole('checkbox', { name: /^Theft/ })
      .check();
    await page.keyboard.press('Escape');
    typed = await countChangedFrom(page, all);
    expect(typed).toBeGreaterThan(0);
    expect(typed).toBeLessThan(all);
    await page.getByLabel('From hour').selectOption('22');
    await page.getByLabel('To hour').selectOption('6');
    night = await countChangedFrom(page, typed);
    expect(night).toBeGreaterThan(0);
    expect(night).toBeLessThan(typed);
    // Free text over address and description (debounced), then cleared again.
    const search = page.getByLabel('Search address and description');
    await search.fill('Redbud');
    const words = await countChangedFrom(page, night);
    expect(words).toBeLessThan(night);
    await search.fill('');
    expect(await countChangedFrom(page, words)).toBe(night);
    const grid = page.getByTestId('incident-table');
    await expect(grid).toHaveAttribute('data-total', String(night));
    // Sortable headers say how they sort; distance waits for an area in the filters.
    const header = (name: RegExp) => grid.getByRole('columnheader', { name });
    await expect(header(/Local date and time/)).toHaveAttribute('aria-sort', 'descending');
    await expect(grid.getByRole('button', { name: 'Distance' })).toBeDisabled();
    await grid.getByRole('button', { name: 'Address' }).click();
    await expect(header(/Address/)).toHaveAttribute('aria-sort', 'ascending');
    await grid.getByRole('button', { name: /Local date and time/ }).click(); // back to newest first
    await expect(header(/Local date and time/)).toHaveAttribute('aria-sort', 'descending');
    await shot(page, '06-filtered');
  });

  await test.step('open an incident and fetch its description', async () => {
    await page.locator('[role="row"][aria-rowindex="2"]').click();
    const panel = page.getByTestId('incident-panel');
    await expect(panel.getByRole('heading', { level: 2, name: 'Theft' })).toBeVisible();
    await expect(panel).toContainText('As the API wrote it');
    await expect(panel).toContainText('America/Denver');
    await expect(panel.getByRole('link', { name: /Open on the service/ })).toHaveAttribute(
      'href',
      /^https:\/\//,
    );
    await panel.getByRole('button', { name: 'Fetch description' }).click();
    await expect(panel.getByRole('region', { name: 'Description' })).toContainText('Simulated record');
    await shot(page, '07-incident');
  });

  await test.step('stop the simulator: a sync says offline, browsing goes on', async () => {
    await sim?.close();
    sim = null;
    await openView(page, 'Areas');
    const card = areaCard(page);
    await syncFromCard(page, card);
    await expect(card.locator('[data-sync-state="offline"]')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('link-status')).toHaveText('Offline — showing the local archive');
    await shot(page, '08-offline-sync');
    await card.getByRole('button', { name: 'Stop sync' }).click();
    await expect(card.locator('[data-sync-state="paused"]')).toBeVisible();

    await openView(page, 'Table');
    expect(await filteredCount(page)).toBe(night);
    await expect(page.getByTestId('incident-table')).toHaveAttribute('data-total', String(night));
    // From the keyboard: the panel follows the selected row; Enter opens it.
    const grid = page.getByTestId('incident-table');
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(grid.locator('[aria-rowindex="3"]')).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByTestId('incident-panel');
    await expect(panel.getByRole('region', { name: 'Description' })).toContainText(
      'The description has not been fetched yet.',
    );
    await expect(panel.getByRole('region', { name: 'Description' })).toContainText('Blotter is offline');
    await shot(page, '09-offline-table');
  });

  await test.step('start the simulator again on the same port and resume the sync', async () => {
    sim = await startSimulator({ ...SIM_OPTIONS, port });
    await openView(page, 'Areas');
    const card = areaCard(page);
    await card.getByRole('button', { name: 'Sync now…' }).click();
    await expect(card.getByTestId('sync-plan')).toContainText('picks up the interrupted sync');
    await syncFromCard(page, card);
    await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('link-status')).toHaveText('Online');
    await shot(page, '10-resumed');
  });
});
