/**
 * Trust in the connection settings (issue 11, items 3, 21, 22), in the web host against the simulator:
 *
 * - a failed connection test stores nothing — the next launch still shows the welcome screen — and
 *   "Save anyway" is there to keep what was entered;
 * - a base URL changed in Settings does not take the stored key with it: the page says so, the web
 *   host's confirmation is re-entering the key, and a loopback "attacker" server never hears a request;
 * - after the demo synced, a page opened later does not say "Network: not checked yet".
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { startSimulator, type Simulator } from '../src-sim/index';
import { expect, test } from './fixtures';
import { reloadApp } from './support/appReady';
import { openView, section } from './support/app';
import { accountHolding, SERVICE } from './support/keyring';

const GOOD = `trust-good-${Date.now().toString(36)}`;
let sim: Simulator;
let attacker: Server;
let attackerUrl: string;
const heard: string[] = [];

test.beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    scale: 'tiny',
    keys: [{ key: GOOD, plan: 'developer', ips: ['127.0.0.1', '::1'] }],
  });
  attacker = createServer((req, res) => {
    heard.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"crimes":[]}');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => attacker?.close(resolve));
});
test.afterEach(() => {
  for (const key of [GOOD, 'trust-not-a-key']) {
    const account = accountHolding(key);
    if (account) spawnSync('secret-tool', ['clear', 'service', SERVICE, 'account', account]);
  }
});

test('a refused key is not stored: the welcome comes back, unless the user saves anyway', async ({
  page,
}) => {
  const welcome = page.getByTestId('welcome');
  await welcome.getByRole('button', { name: 'Use my API key' }).click();
  const form = welcome.getByRole('region', { name: 'Use my API key' });
  await form.getByLabel('Base URL').fill(sim.url);
  await form.getByLabel('API key', { exact: true }).fill('trust-not-a-key');
  await form.getByRole('button', { name: 'Test connection' }).click();
  const problem = form.getByRole('alert');
  await expect(problem).toContainText('The key was rejected (401)');
  await expect(problem).toContainText('Nothing was saved');
  await expect(problem.getByRole('button', { name: 'Save anyway' })).toBeVisible();
  expect(accountHolding('trust-not-a-key')).toBeNull();

  await reloadApp(page); // the next launch
  await expect(page.getByTestId('welcome')).toBeVisible();

  await page.getByTestId('welcome').getByRole('button', { name: 'Use my API key' }).click();
  const again = page.getByTestId('welcome').getByRole('region', { name: 'Use my API key' });
  await expect(again.getByLabel('Base URL')).toHaveValue('');
  await again.getByLabel('Base URL').fill(sim.url);
  await again.getByLabel('API key', { exact: true }).fill('trust-not-a-key');
  await again.getByRole('button', { name: 'Test connection' }).click();
  await again.getByRole('alert').getByRole('button', { name: 'Save anyway' }).click();
  await expect(again.getByRole('status')).toContainText('Saved without a working connection');
  expect(accountHolding('trust-not-a-key')).not.toBeNull();
});

test('a new base URL does not take the stored key: the attacker hears nothing', async ({ page }) => {
  const welcome = page.getByTestId('welcome');
  await welcome.getByRole('button', { name: 'Use my API key' }).click();
  const form = welcome.getByRole('region', { name: 'Use my API key' });
  await form.getByLabel('Base URL').fill(sim.url);
  await form.getByLabel('API key', { exact: true }).fill(GOOD);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status')).toContainText('Connected');
  await form.getByRole('status').getByRole('button', { name: 'Add your first area' }).click();

  await openView(page, 'Settings');
  const connection = section(page, 'Connection');
  await connection.getByLabel('Base URL').fill(attackerUrl);
  await connection.getByRole('button', { name: 'Save settings' }).click();
  const warning = connection.getByTestId('base-url-unconfirmed');
  const host = new URL(attackerUrl).host;
  await expect(warning).toContainText(`The stored API key has not been confirmed for ${host}`);
  await warning.getByRole('button', { name: `Send the key to ${host}…` }).click();
  await expect(warning.getByRole('alert')).toContainText('enter the API key again with this base URL');
  await reloadApp(page);
  await expect(section(page, 'Connection').getByTestId('base-url-unconfirmed')).toBeVisible();
  expect(heard).toEqual([]);
});

test.describe('the network status after the demo synced', () => {
  test.afterEach(async ({ dataDir }) => {
    await rm(`${dataDir}-demo`, { recursive: true, force: true });
  });

  test('a page opened after the sync knows the API answered', async ({ page }) => {
    test.setTimeout(120_000);
    await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
    const banner = page.getByTestId('demo-banner');
    await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 90_000 });
    await reloadApp(page); // the sync ran before this page: its events are gone
    const link = page.getByTestId('link-status');
    await expect(link).toHaveAttribute('data-online', 'online');
    await expect(link).not.toHaveText('Network: not checked yet');
  });
});
