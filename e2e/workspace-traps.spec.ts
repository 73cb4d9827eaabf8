/**
 * Traps in the workspace (issue 25, items 8, 9 and 11), in today's components; a rebuilt filter bar
 * or form must keep these passing:
 *
 * - "Fewer filters" never hides a filter that is on: folded, the bar shows each as a chip that
 *   removes it.
 * - Every confirmation is a modal dialog: focus starts on the safe choice, Tab stays inside, Escape
 *   cancels, focus goes back to the opener — so Enter twice never deletes anything (the demo, the
 *   API key, an area; the sync plan too, which opens only when asked).
 * - An area's card follows its sync: after the first sync of an area that brings no incident (so
 *   the archive never changes), the coverage says the days are complete without a reload.
 */
import { rm } from 'node:fs/promises';
import { startSimulator, type Simulator } from '../src-sim/index';
import { expect, test } from './fixtures';
import { waitForAppReady } from './support/appReady';
import { addAreaByCoordinates, connectEnterprise, openView, section } from './support/app';
import { enterTwice, expectModalConfirmation } from './support/confirm';

const KEY = 'traps-e2e-key';
const RATE = 6000;
/** Open country in Kansas, far from every simulator city: an area there syncs and finds nothing. */
const EMPTY_PLACE = { lat: 39.0, lon: -99.5, radiusMi: 0.5 };

let sim: Simulator | null = null;

test.afterEach(async ({ dataDir }) => {
  await sim?.close();
  sim = null;
  await rm(`${dataDir}-demo`, { recursive: true, force: true }); // only if the demo test failed midway
});

test('folded, the filter bar still shows each filter that is on as a chip that removes it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openView(page, 'Table');
  const bar = page.getByRole('region', { name: 'Filters' });
  await bar.getByRole('button', { name: /^Types:/ }).click();
  await bar
    .getByRole('dialog', { name: 'Crime types' })
    .getByRole('checkbox', { name: /^Burglary/ })
    .check();
  await page.keyboard.press('Escape');
  await bar.getByRole('group', { name: 'Weekdays' }).getByRole('button', { name: 'Sun' }).click();
  await bar.getByLabel('From hour').selectOption('22');
  await bar.getByLabel('To hour').selectOption('6');
  await expect(bar.getByRole('button', { name: '90 days', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await bar.getByRole('button', { name: /Fewer filters/ }).click();
  await expect(bar.getByRole('group', { name: 'Weekdays' })).toBeHidden();
  const on = bar.getByRole('list', { name: 'Filters on' });
  await expect(on.getByRole('listitem')).toHaveText([
    /Last 90 days/,
    /22:00–06:00, overnight/,
    /Sundays/,
    /Burglary/,
  ]);

  // Removing a chip removes its filter; focus moves to the chip now in its place.
  await on.getByRole('button', { name: 'Remove the type Burglary' }).click();
  await expect(on.getByRole('listitem')).toHaveText([/Last 90 days/, /22:00–06:00/, /Sundays/]);
  await expect(on.getByRole('button', { name: 'Remove the weekday Sundays' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(on.getByRole('listitem')).toHaveText([/Last 90 days/, /22:00–06:00/]);

  await bar.getByRole('button', { name: /More filters/ }).click();
  await expect(bar.getByRole('button', { name: /^Types:/ })).toHaveText(/Types: all/);
  await expect(
    bar.getByRole('group', { name: 'Weekdays' }).getByRole('button', { name: 'Sun' }),
  ).toHaveAttribute('aria-pressed', 'false');
  await expect(bar.getByLabel('From hour')).toHaveValue('22');
  // Unfolded, the controls say it all: no chips.
  await expect(on).toHaveCount(0);

  // The date chip removes the date filter: all history.
  await bar.getByRole('button', { name: /Fewer filters/ }).click();
  await on.getByRole('button', { name: /Remove the date filter Last 90 days/ }).click();
  await expect(on.getByRole('listitem')).toHaveText([/22:00–06:00/]);
  await bar.getByRole('button', { name: /More filters/ }).click();
  await expect(bar.getByRole('button', { name: 'All history', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('an area: its plan and its delete are modal confirmations, and its card follows its first sync', async ({
  page,
}) => {
  test.setTimeout(180_000);
  sim = await startSimulator({
    seed: 11,
    scale: 'small',
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE }],
  });
  await connectEnterprise(page, { url: sim.url, rate: RATE, key: KEY });

  await test.step('the API key: removing it asks in a modal dialog, focus on Cancel', async () => {
    const apiKey = section(page, 'API key');
    const opener = apiKey.getByRole('button', { name: 'Remove key…' });
    const dialog = page.getByRole('dialog', { name: 'Remove the API key?' });
    await opener.click();
    await expectModalConfirmation(page, dialog, opener);
    await enterTwice(page, dialog, opener);
    await expect(apiKey.getByTestId('key-state')).toHaveText('An API key is set');
  });

  const card = page.getByTestId('area-card').filter({ hasText: 'Open country' });
  await test.step('a new area: focus on its first action; the plan opens only when asked', async () => {
    await addAreaByCoordinates(page, EMPTY_PLACE, 'Open country');
    // A modal that opened by itself would block the page: the card offers the plan instead.
    await expect(card.getByRole('button', { name: 'Sync now…' })).toBeFocused();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('synced from the plan, the card shows the coverage without a reload', async () => {
    const opener = card.getByRole('button', { name: 'Sync now…' });
    const plan = page.getByRole('dialog', { name: 'Sync Open country?' });
    await opener.click();
    await expect(plan).toContainText(/requests? —/);
    await expectModalConfirmation(page, plan, opener);
    await opener.click();
    await expect(plan.getByRole('button', { name: 'Start sync' })).toBeEnabled();
    await plan.getByRole('button', { name: 'Start sync' }).click();
    await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
    // Nothing there: the archive never changed, yet the coverage follows the sync.
    await expect(card.getByTestId('area-incidents')).toHaveText('0 incidents stored');
    await expect(card.getByTestId('coverage-strip')).toContainText(/\d+ days complete/);
  });

  await test.step('deleting the area: a modal dialog, focus on Cancel, Escape cancels', async () => {
    const opener = card.getByRole('button', { name: 'Delete…' });
    const dialog = page.getByRole('dialog', { name: 'Delete “Open country”?' });
    await opener.click();
    await expectModalConfirmation(page, dialog, opener);
    await enterTwice(page, dialog, opener);
    await expect(card).toBeVisible();
    await opener.click();
    await dialog.getByRole('button', { name: 'Delete area' }).click();
    await expect(card).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Deleted “Open country”' })).toBeVisible();
  });

  await test.step('the API key is removed once confirmed', async () => {
    await openView(page, 'Settings');
    const apiKey = section(page, 'API key');
    await apiKey.getByRole('button', { name: 'Remove key…' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the API key?' })
      .getByRole('button', { name: 'Remove key' })
      .click();
    await expect(apiKey.getByTestId('key-state')).toHaveText('No API key set');
    // Its opener went with the key: focus is in the key field, not lost to the page.
    await expect(apiKey.getByLabel('API key', { exact: true })).toBeFocused();
  });
});

test('"Remove demo data…" asks in a modal dialog with focus on Cancel: Enter twice keeps the demo', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(180_000);
  const welcome = page.getByTestId('welcome');
  const banner = page.getByTestId('demo-banner');
  await welcome.getByRole('button', { name: 'Explore with demo data' }).click();
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await waitForAppReady(page);

  const opener = banner.getByRole('button', { name: 'Remove demo data…' });
  const dialog = page.getByRole('dialog', { name: 'Remove the demo data?' });
  await enterTwice(page, dialog, opener);
  await expect(banner).toBeVisible();
  await opener.click();
  await expectModalConfirmation(page, dialog, opener);
  await expect(banner).toBeVisible();

  // Removed once confirmed (after its sync, as a user would; this also leaves no demo key behind).
  await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 90_000 });
  await opener.click();
  await dialog.getByRole('button', { name: 'Remove demo data' }).click();
  await expect(welcome).toBeVisible({ timeout: 60_000 });
  await rm(`${dataDir}-demo`, { recursive: true, force: true });
});
