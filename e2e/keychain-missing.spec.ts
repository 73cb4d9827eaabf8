/**
 * Without a reachable keychain, Settings says so and how to fix it, and key entry is off: there is
 * no plaintext fallback. The host runs with a D-Bus address that leads nowhere.
 */
import path from 'node:path';
import { expect, test } from './fixtures';
import { openView, section } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

test.use({ hostEnv: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/blotter-e2e-no-bus' } });

test('says that no keychain is reachable, how to fix it, and offers no other place for the key', async ({
  page,
}) => {
  await openView(page, 'Map'); // past the welcome screen a first launch opens on (first-run.spec.ts)
  await expect(page.getByTestId('empty-state')).toContainText('No keychain is reachable');

  await openView(page, 'Settings');
  const apiKey = section(page, 'API key');
  const problem = apiKey.getByRole('alert');
  await expect(problem).toContainText('No keychain available');
  await expect(problem).toContainText('How to fix it:');
  await expect(apiKey.getByLabel('API key', { exact: true })).toBeDisabled();
  await expect(apiKey.getByRole('button', { name: 'Save key' })).toBeDisabled();
  await expect(apiKey.getByRole('button', { name: 'Check again' })).toBeEnabled();
  await expect(page.locator('.status-bar')).toContainText('No keychain available');
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'settings-no-keychain.png') });
});
