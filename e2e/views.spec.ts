/**
 * The shell: every view is reachable from the navigation, has its heading and an empty state that
 * says what to do next; screenshots of each (light and dark) go to e2e/artifacts/.
 */
import path from 'node:path';
import { expect, test } from './fixtures';
import { reloadApp } from './support/appReady';
import { navLink, openView, type ViewLabel } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const VIEWS: { label: ViewLabel; hash: string; says: string }[] = [
  { label: 'Map', hash: 'map', says: 'No incidents yet' },
  { label: 'Table', hash: 'table', says: 'No incidents to list' },
  { label: 'History', hash: 'history', says: 'No history yet' },
  { label: 'Export', hash: 'export', says: 'Nothing to export yet' },
  { label: 'Areas', hash: 'areas', says: 'No areas yet' },
  { label: 'Settings', hash: 'settings', says: 'No API key set' },
];

test('every view has its heading and empty state; screenshots go to e2e/artifacts', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const view of VIEWS) {
      await openView(page, view.label);
      await expect(page).toHaveURL(new RegExp(`#/${view.hash}$`));
      await expect(navLink(page, view.label)).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('main').getByText(view.says, { exact: true })).toBeVisible();
      const name = scheme === 'light' ? view.hash : `${view.hash}-${scheme}`;
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
    }
  }
});

test('without a key, the empty states send the user to Settings first', async ({ page }) => {
  await openView(page, 'Map');
  const empty = page.getByTestId('empty-state');
  await expect(empty).toContainText('First:');
  await empty.getByRole('link', { name: 'Add your API key' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL(/#\/settings$/);
});

test('the navigation works from the keyboard and a reload keeps the view', async ({ page }) => {
  await navLink(page, 'History').focus();
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1, name: 'History' });
  await expect(heading).toBeFocused();
  // From the heading, Tab walks forward through the view and reaches the empty state's next step.
  const next = page.getByTestId('empty-state').getByRole('link');
  let reached = false;
  for (let presses = 0; presses < 40 && !reached; presses++) {
    await page.keyboard.press('Tab');
    reached = await next.evaluate((el) => el === document.activeElement);
  }
  expect(reached, 'the empty state link is reachable with Tab from the heading').toBe(true);

  await reloadApp(page);
  await expect(heading).toBeVisible();
  await expect(navLink(page, 'History')).toHaveAttribute('aria-current', 'page');
});
