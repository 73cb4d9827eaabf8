/**
 * The first journey: store a key in Settings, reload, see that a key is set; the keychain holds it
 * (`secret-tool lookup`); the key appears nowhere in the page (DOM, inputs, storage, cookies), the
 * data folder (SQLite file, WAL, logs) or the host's and page's output. Then remove it again.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test } from './fixtures';
import { reloadApp } from './support/appReady';
import { openView, section } from './support/app';
import { accountHolding, lookup, SERVICE } from './support/keyring';
import { filesContaining, filesUnder, pagePlacesContaining } from './support/leaks';
import { ARTIFACTS_DIR } from './support/paths';

test('an API key goes to the keychain and nowhere else, and can be removed', async ({
  page,
  dataDir,
  hostLogs,
  pageLogs,
}) => {
  const key = `blotter-e2e-key-${randomUUID()}`;
  await openView(page, 'Settings');
  const apiKey = section(page, 'API key');
  const keyState = apiKey.getByTestId('key-state');
  const keyInput = apiKey.getByLabel('API key', { exact: true });
  await expect(keyState).toHaveText('No API key set');

  await test.step('store the key', async () => {
    await keyInput.fill(key);
    await apiKey.getByRole('button', { name: 'Save key' }).click();
    await expect(keyState).toHaveText('An API key is set');
    await expect(apiKey.getByRole('status')).toHaveText('The API key is saved in the keychain.');
    await expect(keyInput).toHaveValue('');
    expect(await pagePlacesContaining(page, key)).toEqual([]);
  });

  await test.step('after a reload the view and the key status remain', async () => {
    await reloadApp(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(section(page, 'API key').getByTestId('key-state')).toHaveText('An API key is set');
    await expect(apiKey.getByRole('button', { name: 'Replace key' })).toBeVisible();
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'settings-key-set.png') });
  });

  await test.step('secret-tool finds the key in the keychain', async () => {
    const account = accountHolding(key);
    expect(account, `no ${SERVICE} item in the keychain holds the key`).not.toBeNull();
    expect(account).toMatch(/^api-key:/);
    expect(lookup(account ?? '')).toBe(key);
  });

  await test.step('the key is nowhere else', async () => {
    expect(await pagePlacesContaining(page, key)).toEqual([]);
    const files = await filesUnder(dataDir);
    expect(
      files.some((f) => /\.(sqlite|db)$/.test(f)),
      `no database among ${files.join(', ')}`,
    ).toBe(true);
    expect(await filesContaining(dataDir, key)).toEqual([]);
    expect(hostLogs.text).not.toContain(key);
    expect(pageLogs.text).not.toContain(key);
  });

  await test.step('remove the key, with confirmation', async () => {
    await apiKey.getByRole('button', { name: 'Remove key…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the API key?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Remove key', exact: true }).click();
    await expect(keyState).toHaveText('No API key set');
    await reloadApp(page);
    await expect(section(page, 'API key').getByTestId('key-state')).toHaveText('No API key set');
    expect(accountHolding(key)).toBeNull();
  });
});

test('a key that is too short is refused in plain words and not stored', async ({ page }) => {
  await openView(page, 'Settings');
  const apiKey = section(page, 'API key');
  await apiKey.getByLabel('API key', { exact: true }).fill('abc');
  await apiKey.getByRole('button', { name: 'Save key' }).click();
  await expect(apiKey.getByRole('alert')).toHaveText('The API key is too short.');
  await expect(apiKey.getByTestId('key-state')).toHaveText('No API key set');
});
