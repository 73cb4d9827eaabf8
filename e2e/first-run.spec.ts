/**
 * First run, both ways in, from an empty data folder:
 *
 * 1. The demo: welcome → "Explore with demo data" → the synthetic-data banner → the demo sync
 *    finishes (the banner's data-demo-sync, never a sleep) → the Map draws its incidents → a CSV
 *    export → "Remove demo data" deletes the demo folder and its keychain entry → welcome again.
 * 2. The key: a simulator in this process with a good key, a key it does not know (401) and a key
 *    whose static-IP allowlist excludes this computer (403); each answer shows on the welcome form,
 *    and the good key leads to Areas with a hint to add the first area.
 *
 * Screenshots go to e2e/artifacts/first-run-*.png (first-run-demo-map.png is the README's).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { startSimulator, type Simulator } from '../src-sim/index';
import { expect, test } from './fixtures';
import { waitForAppReady } from './support/appReady';
import { accountHolding, accountsOf, lookup, SERVICE } from './support/keyring';
import { pagePlacesContaining } from './support/leaks';
import { ARTIFACTS_DIR } from './support/paths';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS_DIR, `first-run-${name}.png`) });

/** The keychain account of a data folder's API key: `api-key:` and the folder's own profile id. */
function keyAccountOf(dir: string): string {
  const db = new Database(path.join(dir, 'blotter.sqlite'), { readonly: true });
  try {
    const row = db.prepare("SELECT value FROM settings WHERE key = 'profileId'").get() as
      { value: string } | undefined;
    const id = row?.value.startsWith('"') ? (JSON.parse(row.value) as string) : row?.value;
    if (!id) throw new Error(`${dir} has no profile id`);
    return `api-key:${id}`;
  } finally {
    db.close();
  }
}

/** Keychain accounts that appeared since `before` and hold a demo key (the demo makes up `blotter-demo-…`). */
const newDemoKeyAccounts = (before: string[]): string[] =>
  accountsOf()
    .filter((account) => !before.includes(account))
    .filter((account) => lookup(account)?.startsWith('blotter-demo-'));

/** Exports the filtered incidents as CSV from the Export view and downloads the file. */
async function exportCsv(page: Page): Promise<string> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Export' }).click();
  const panel = page.getByRole('region', { name: 'Export the filtered incidents' });
  await panel.getByRole('radio', { name: /^CSV/ }).check();
  await panel.getByRole('button', { name: /^Export [\d,]+ incidents$/ }).click();
  await expect(panel.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 60_000,
  });
  const download = page.waitForEvent('download');
  await panel.getByTestId('export-download').click();
  const file = await (await download).path();
  return readFile(file, 'utf8');
}

test.describe('first run with demo data', () => {
  test.afterEach(async ({ dataDir }) => {
    await rm(`${dataDir}-demo`, { recursive: true, force: true }); // only if the test failed midway
  });

  test('from an empty folder to a synced map and a CSV, then removed in one click', async ({
    page,
    dataDir,
    target,
  }) => {
    test.setTimeout(180_000);
    const demoDir = `${dataDir}-demo`;
    const welcome = page.getByTestId('welcome');
    const banner = page.getByTestId('demo-banner');

    await test.step('the welcome screen offers both ways in', async () => {
      await expect(welcome).toBeVisible();
      await expect(welcome.getByRole('button', { name: 'Use my API key' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Blotter' })).toBeVisible();
      await shot(page, 'welcome');
    });

    let demoAccount: string | undefined;
    await test.step('"Explore with demo data" labels everything as synthetic and syncs a city', async () => {
      const before = accountsOf();
      await page.setViewportSize({ width: 1280, height: 1000 }); // room for the map in the README's screenshot
      await welcome.getByRole('button', { name: 'Explore with demo data' }).click();
      await expect(banner).toBeVisible({ timeout: 60_000 });
      await waitForAppReady(page);
      await expect(banner).toContainText('Synthetic demo data');
      // The notice starts folded to one line; its details say where the demo is kept.
      await banner.getByRole('button', { name: 'Details' }).click();
      await expect(banner).toContainText(demoDir);
      await banner.getByRole('button', { name: 'Less' }).click();
      expect(existsSync(path.join(demoDir, 'blotter-demo.json'))).toBe(true);
      await expect(page).toHaveURL(/#\/map$/);
      await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 90_000 });
      await expect(banner.getByRole('status')).toContainText('The demo area is synced');
      // The demo key sits in the keychain under the demo folder's own account (other journeys
      // running beside this one may start demos of their own: this folder's account is the one).
      demoAccount = keyAccountOf(demoDir);
      expect(newDemoKeyAccounts(before)).toContain(demoAccount);
    });

    await test.step('the map draws the synthetic incidents', async () => {
      const map = page.getByTestId('map');
      await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
      // The map follows the sync's writes: the last ones may land just after the banner says done.
      await expect
        .poll(() => page.evaluate(() => window.__blotterPerf?.points?.incidents ?? 0), { timeout: 30_000 })
        .toBeGreaterThan(300);
      await expect(page.getByTestId('map-legend')).toBeVisible();
      await shot(page, 'demo-map');
    });

    await test.step('the filtered incidents export as CSV', async () => {
      // Electron asks where to save with the system's dialog, which a test cannot answer.
      if (target === 'electron') return;
      const csv = await exportCsv(page);
      const [header, ...rows] = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(header).toMatch(/^cdid,type,/);
      expect(rows.length).toBeGreaterThan(300);
      expect(csv).toContain('Synthetic');
      await shot(page, 'demo-export');
    });

    await test.step('"Remove demo data" deletes the folder and the key, back to the welcome', async () => {
      await banner.getByRole('button', { name: 'Remove demo data…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove the demo data?' });
      await shot(page, 'demo-remove');
      await confirm.getByRole('button', { name: 'Remove demo data' }).click();
      await expect(welcome).toBeVisible({ timeout: 60_000 });
      await waitForAppReady(page);
      await expect(banner).toHaveCount(0);
      expect(existsSync(demoDir)).toBe(false);
      expect(lookup(demoAccount ?? '')).toBeNull();
      expect(existsSync(dataDir)).toBe(true);
      await shot(page, 'after-demo');
    });
  });
});

test.describe('first run on a computer without a keychain', () => {
  test.use({ hostEnv: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/blotter-e2e-no-bus' } });
  test.afterEach(async ({ dataDir }) => {
    await rm(`${dataDir}-demo`, { recursive: true, force: true });
  });

  test('the key path says how to fix the keychain; the demo still runs, its key in memory', async ({
    page,
    dataDir,
  }) => {
    test.setTimeout(120_000);
    const welcome = page.getByTestId('welcome');
    await welcome.getByRole('button', { name: 'Use my API key' }).click();
    const form = welcome.getByRole('region', { name: 'Use my API key' });
    await expect(form.getByRole('alert')).toContainText('No keychain available');
    await expect(form.getByLabel('API key', { exact: true })).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Test connection' })).toBeDisabled();
    await shot(page, 'no-keychain');

    await welcome.getByRole('button', { name: 'Explore with demo data' }).click();
    const banner = page.getByTestId('demo-banner');
    await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 90_000 });
    await expect(banner).toContainText('the demo key is kept in memory only');
    await banner.getByRole('button', { name: 'Remove demo data…' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the demo data?' })
      .getByRole('button', { name: 'Remove demo data', exact: true })
      .click();
    await expect(welcome).toBeVisible({ timeout: 60_000 });
    expect(existsSync(`${dataDir}-demo`)).toBe(false);
  });
});

test.describe('first run with an API key', () => {
  const GOOD = `first-run-good-${Date.now().toString(36)}`;
  const ELSEWHERE = `first-run-other-office-${Date.now().toString(36)}`;
  let sim: Simulator;

  test.beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      scale: 'tiny',
      keys: [
        { key: GOOD, plan: 'developer', ips: ['127.0.0.1', '::1'] },
        { key: ELSEWHERE, plan: 'developer', ips: ['203.0.113.7'] },
      ],
    });
  });
  test.afterAll(async () => {
    await sim?.close();
  });
  test.afterEach(() => {
    // The test stores keys in the keychain like a user would; leave nothing behind.
    const account = accountHolding(GOOD) ?? accountHolding(ELSEWHERE);
    if (account) spawnSync('secret-tool', ['clear', 'service', SERVICE, 'account', account]);
  });

  test('a wrong key (401), a key for another office (403), then the good key', async ({ page }) => {
    const welcome = page.getByTestId('welcome');
    await welcome.getByRole('button', { name: 'Use my API key' }).click();
    const form = welcome.getByRole('region', { name: 'Use my API key' });
    await form.getByLabel('Base URL').fill(sim.url);
    await form.getByLabel('Plan').selectOption('developer');
    const key = form.getByLabel('API key', { exact: true });
    const test_ = form.getByRole('button', { name: 'Test connection' });
    const problem = form.getByRole('alert');

    await test.step('a key the API does not know: 401 in plain words', async () => {
      await key.fill('first-run-not-a-key');
      await test_.click();
      await expect(problem).toContainText('The key was rejected (401)');
      await expect(problem).toContainText('The API rejected this key. Check it and enter it again.');
      await shot(page, 'key-401');
    });

    await test.step('a key whose allowlist excludes this computer: 403 and the static-IP rule', async () => {
      await key.fill(ELSEWHERE);
      await test_.click();
      await expect(problem).toContainText("This computer's IP address is not allowed (403)");
      await expect(problem).toContainText(
        "This computer's public IP address is not on the key's allowlist. Keys work only from the static IPs registered with the API operator: ask them to register your office's static IP.",
      );
      await shot(page, 'key-403');
    });

    await test.step('the good key connects, and leads to Areas with a hint', async () => {
      await key.fill(GOOD);
      await test_.click();
      const ok = form.getByRole('status');
      await expect(ok).toContainText('Connected');
      await expect(ok).toContainText(`Connected to ${new URL(sim.url).host}: the API accepted the key`);
      await expect(problem).toHaveCount(0);
      await expect(key).toHaveValue('');
      expect(await pagePlacesContaining(page, GOOD)).toEqual([]);
      await shot(page, 'key-ok');
      await ok.getByRole('button', { name: 'Add your first area' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Areas' })).toBeVisible();
      await expect(page.getByTestId('first-area-hint')).toContainText('add the first area');
      await expect(welcome).toHaveCount(0);
      await shot(page, 'key-areas');
    });
  });
});
