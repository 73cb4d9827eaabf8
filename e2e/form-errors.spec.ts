/**
 * Errors in sight (issue 25 item 10) and rule types chosen, not typed (item 7), in a fresh data
 * folder (no API, no incidents). An error stands next to its control or action, is scrolled into
 * view and announced (role alert, aria-live); a disabled action says why beside it, and the
 * Analysis form checks its own fields instead of the browser's validation popups.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openView } from './support/app';

/** Whether `below` starts within `gap` px under `above`'s bottom edge (beside it, not far below). */
async function justBelow(above: Locator, below: Locator, gap = 120): Promise<void> {
  const a = await above.boundingBox();
  const b = await below.boundingBox();
  expect(a && b, 'both are laid out').toBeTruthy();
  const distance = b!.y - (a!.y + a!.height);
  expect(distance, `the error starts ${distance}px under its control`).toBeGreaterThanOrEqual(-1);
  expect(distance, `the error starts ${distance}px under its control`).toBeLessThan(gap);
}

async function expectAnnouncedInView(error: Locator): Promise<void> {
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toHaveAttribute('aria-live', 'assertive');
  await expect(error).toBeInViewport();
}

const small = async (page: Page) => page.setViewportSize({ width: 1100, height: 560 });

test('the rule form says why Save is off, offers only known types, and saves the one chosen', async ({
  page,
}) => {
  await small(page);
  await openView(page, 'Alerts');
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New alert rule' });
  const testButton = form.getByRole('button', { name: 'Test against the last 90 days' });
  const save = form.getByRole('button', { name: 'Save rule' });
  await expect(testButton).toBeDisabled();
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription('Name the rule to test it; Save needs the test.');
  await expect(testButton).toHaveAccessibleDescription('Name the rule to test it; Save needs the test.');
  await expect(form.getByTestId('disabled-reason')).toBeVisible();

  await form.getByLabel('Name').fill('Burglaries anywhere');
  await expect(testButton).toBeEnabled();
  await expect(save).toHaveAccessibleDescription(/^Test the rule against the last 90 days first/);

  // Types are chosen from the known ones: a checkbox each, no free text to misspell.
  const types = form.getByRole('group', { name: 'Types (none chosen: all)' });
  for (const type of ['Shooting', 'Burglary', 'Theft', 'Other'])
    await expect(types.getByRole('checkbox', { name: type, exact: true })).toBeVisible();
  await expect(form.getByRole('textbox', { name: /Types/ })).toHaveCount(0);
  await types.getByRole('checkbox', { name: 'Burglary', exact: true }).check();

  await testButton.click();
  await expect(form.getByTestId('rule-test-result')).toContainText('This rule would have fired 0 times');
  await expect(save).toBeEnabled();
  await expect(form.getByTestId('disabled-reason')).toHaveCount(0);
  await save.click();
  await expect(page.getByRole('list', { name: 'Alert rules' })).toContainText('Burglaries anywhere');
  await expect(page.getByRole('list', { name: 'Alert rules' })).toContainText('Burglary');
});

test('the webhook’s refusal stands under its URL field, in view and announced', async ({ page }) => {
  await small(page);
  await openView(page, 'Alerts');
  // The settings load once on opening and then fill the fields: type after that.
  await expect(page.getByTestId('delivery-settings')).toHaveAttribute('data-loaded', 'true');
  const form = page.getByRole('form', { name: 'Webhook' });
  const url = form.getByLabel('Webhook URL');
  await url.fill('not a web address at all');
  await form.getByRole('button', { name: 'Save webhook' }).click();
  const error = form.getByTestId('webhook-url-error');
  await expectAnnouncedInView(error);
  await expect(error).toContainText('not a web address');
  await justBelow(url, error);
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleDescription(/not a web address/);
  // One place says it: no second copy far below the forms.
  await expect(page.getByText('not a web address', { exact: false })).toHaveCount(1);
});

test('the Analysis form checks its own fields beside them, never with browser popups', async ({ page }) => {
  await small(page);
  await openView(page, 'Analysis');
  const form = page.getByRole('form', { name: 'Analysis settings' });
  await expect(form).toHaveAttribute('novalidate', '');
  await page.getByLabel('Analysis to run').selectOption({ label: 'Hot spots (Gi*)' });
  const cell = form.getByLabel('Cell size (m)');
  await cell.fill('-5');
  await form.getByRole('button', { name: 'Run' }).click();
  const error = form.getByTestId('analysis-field-error-cellSize');
  await expectAnnouncedInView(error);
  await expect(error).toContainText('Cell size: a number of metres above 0');
  await justBelow(cell, error);
  await expect(cell).toHaveAttribute('aria-invalid', 'true');
  await expect(cell).toBeFocused();
  await expect(page.getByTestId('analysis-progress')).toHaveCount(0);
  await expect(page.getByTestId('analysis-error')).toHaveCount(0);

  // Editing the field takes its complaint away; the engine's refusal then stands beside Run.
  await cell.fill('');
  await expect(error).toHaveCount(0);
  await form.getByRole('button', { name: 'Run' }).click();
  const refused = form.getByTestId('analysis-error');
  await expectAnnouncedInView(refused);
  await expect(refused).toContainText('needs at least 30 incidents');
});
