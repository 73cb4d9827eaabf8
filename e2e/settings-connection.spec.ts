/** Settings → Connection: a bad base URL is refused next to the field; a good one and a plan persist. */
import path from 'node:path';
import { expect, test } from './fixtures';
import { reloadApp } from './support/appReady';
import { openView, section } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

test('refuses a bad base URL with a visible message next to the field', async ({ page }) => {
  await openView(page, 'Settings');
  const connection = section(page, 'Connection');
  const baseUrl = connection.getByLabel('Base URL');

  await baseUrl.fill('not a url');
  await connection.getByRole('button', { name: 'Save settings' }).click();

  await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
  const message = connection.locator('.field-error');
  await expect(message).toBeVisible();
  await expect(message).toContainText('Enter a full URL');
  await expect(connection.getByRole('status')).toHaveText('');
  await message.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'settings-bad-url.png') });

  await reloadApp(page);
  await expect(section(page, 'Connection').getByLabel('Base URL')).toHaveValue('');
});

test('saves the base URL and Enterprise’s own rate and window', async ({ page }) => {
  await openView(page, 'Settings');
  const connection = section(page, 'Connection');
  const limits = connection.getByTestId('plan-limits');

  await connection.getByLabel('Base URL').fill('https://api.example.com/');
  await connection.getByLabel('Plan').selectOption('pro-annual');
  await expect(limits).toContainText('300 requests per minute');
  await expect(limits).toContainText('182 days');

  await connection.getByLabel('Plan').selectOption('enterprise');
  await connection.getByLabel('Rate (requests per minute)').fill('1200');
  await connection.getByLabel('Data window (days)').fill('730');
  await expect(limits).toContainText('1,200 requests per minute');
  await connection.getByRole('button', { name: 'Save settings' }).click();
  await expect(connection.getByRole('status')).toHaveText('Settings saved.');

  await reloadApp(page);
  const reloaded = section(page, 'Connection');
  await expect(reloaded.getByLabel('Base URL')).toHaveValue('https://api.example.com');
  await expect(reloaded.getByLabel('Plan')).toHaveValue('enterprise');
  await expect(reloaded.getByLabel('Rate (requests per minute)')).toHaveValue('1200');
  await expect(reloaded.getByTestId('plan-limits')).toContainText('730 days');
  await expect(page.locator('.status-bar')).toContainText('Enterprise · 1,200/min · 730-day window');
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'settings-enterprise.png') });
});

test('refuses an Enterprise rate that is not a whole number, before asking the engine', async ({ page }) => {
  await openView(page, 'Settings');
  const connection = section(page, 'Connection');
  await connection.getByLabel('Plan').selectOption('enterprise');
  const rate = connection.getByLabel('Rate (requests per minute)');
  await rate.fill('12.5');
  await connection.getByRole('button', { name: 'Save settings' }).click();
  await expect(rate).toHaveAttribute('aria-invalid', 'true');
  await expect(connection.getByText('The rate must be a whole number from 1 to 100,000.')).toBeVisible();
});
