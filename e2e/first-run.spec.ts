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
import { DEMO_DOWNTOWN, LABEL, mapAt, roadPixels, mapPixels } from './support/basemapPixels';
import { accountHolding, accountsOf, lookup, SERVICE } from './support/keyring';
import { pagePlacesContaining } from './support/leaks';
import { ARTIFACTS_DIR } from './support/paths';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS_DIR, `first-run-${name}.png`) });

type Mark = { x: number; y: number; r: number; count: number; cluster: boolean };
const drawnMarks = (page: Page): Promise<Mark[]> => page.evaluate(() => window.__blotterPerf?.marks ?? []);

/** The light flavour's water (#80deea), as the basemap draws the bay. */
const WATER = [0x80, 0xde, 0xea];

/**
 * Reads a screenshot of the map container in the page: for each mark, whether the pixel under its
 * centre is water, and how many street-name pixels (#91888b, a warm grey no mark is drawn in) lie
 * inside its disc — a name drawn over a cluster's count.
 */
async function underMarks(
  page: Page,
  png: Buffer,
  marks: Mark[],
): Promise<{ water: Mark[]; labelled: number }> {
  return page.evaluate(
    async ({ b64, marks, water, label }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = document.createElement('canvas');
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const at = (x: number, y: number) => {
        const i = (Math.round(y) * width + Math.round(x)) * 4;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      };
      const near = (c: number[], to: number[], tol: number) => c.every((v, k) => Math.abs(v - to[k]!) <= tol);
      const inside = (m: { x: number; y: number }) => m.x >= 0 && m.y >= 0 && m.x < width && m.y < height;
      const out = { water: [] as typeof marks, labelled: 0 };
      for (const m of marks) {
        if (!inside(m)) continue;
        if (near(at(m.x, m.y), water, 10)) out.water.push(m);
        if (!m.cluster) continue;
        const r = m.r * 0.6; // the disc inside its type ring, where the count is
        for (let y = m.y - r; y <= m.y + r; y++)
          for (let x = m.x - r; x <= m.x + r; x++) {
            if ((x - m.x) ** 2 + (y - m.y) ** 2 > r * r || !inside({ x, y })) continue;
            const c = at(x, y);
            if (near(c, label, 8) && c[0]! - c[1]! >= 5) out.labelled++;
          }
      }
      return out;
    },
    { b64: png.toString('base64'), marks, water: WATER, label: LABEL },
  );
}

/** A screenshot of exactly the map's container (the marks' pixel coordinates). */
async function mapContainerShot(page: Page): Promise<Buffer> {
  const box = await page.locator('.leaflet-container').first().boundingBox();
  if (!box) throw new Error('the map has no box');
  return page.screenshot({ clip: box });
}

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

    await test.step('the first clusters sum to the true total', async () => {
      const incidents = await page.evaluate(() => window.__blotterPerf?.points?.incidents ?? 0);
      // The first view fits the demo areas: every incident is in one of its marks…
      await expect
        .poll(async () => (await drawnMarks(page)).reduce((t, m) => t + m.count, 0), { timeout: 30_000 })
        .toBe(incidents);
      // …and that is the legend's count of the filtered incidents, which the engine counts itself.
      const legend = (await page.getByTestId('map-legend').textContent()) ?? '';
      expect(Number(/([\d,]+) incidents/.exec(legend)?.[1]?.replace(/,/g, ''))).toBe(incidents);
    });

    for (const zoom of [13, 15]) {
      await test.step(`zoom ${zoom}: streets and their names drawn, no mark on water, no name over a count`, async () => {
        await mapAt(page, DEMO_DOWNTOWN, zoom);
        const map = page.getByTestId('map');
        await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 30_000 });
        await page.getByRole('checkbox', { name: 'Heat' }).uncheck();
        const clusters = page.getByRole('checkbox', { name: 'Clusters' });
        await clusters.check();
        // The marks of this view (the worker answers after the move).
        await expect
          .poll(async () => (await drawnMarks(page)).filter((m) => m.cluster).length)
          .toBeGreaterThan(0);
        await page.waitForTimeout(500); // tiles and names settle
        const marks = await drawnMarks(page);
        const withMarks = await mapContainerShot(page);
        await page.screenshot({ path: path.join(ARTIFACTS_DIR, `first-run-demo-z${zoom}.png`) });
        expect(
          (await underMarks(page, withMarks, marks)).labelled,
          'street-name pixels over cluster counts',
        ).toBe(0);
        // Streets and names, counted with the marks off (their white discs would pass for roads).
        await clusters.uncheck();
        await expect
          .poll(() => roadPixels(page), { timeout: 30_000 })
          .toBeGreaterThan(zoom === 15 ? 12_000 : 6_000);
        await expect
          .poll(async () => (await mapPixels(page, [LABEL], 12))[0], { timeout: 30_000 })
          .toBeGreaterThan(zoom === 15 ? 150 : 60);
        const under = await underMarks(page, await mapContainerShot(page), marks);
        expect(under.water, 'marks whose centre is a water pixel').toEqual([]);
        expect(marks.length).toBeGreaterThan(5);
        await clusters.check();
      });
    }

    await test.step('the demo areas are San Francisco places, and the gazetteer finds its names', async () => {
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Areas' }).click();
      const cards = page.getByTestId('area-card');
      await expect(cards.filter({ hasText: 'Downtown San Francisco (demo)' })).toBeVisible();
      await expect(cards.filter({ hasText: 'Mission District (demo)' })).toBeVisible();
      await page.getByRole('button', { name: 'Add an area…' }).click();
      const form = page.getByRole('form', { name: 'Add an area' });
      const search = form.getByLabel('Go to a city or ZIP code');
      await search.fill('San Francisco, CA');
      await form.getByRole('button', { name: 'San Francisco, CA', exact: true }).click();
      await expect(form.getByLabel('Name')).toHaveValue('San Francisco, CA');
      await search.fill('94110'); // the Mission's ZIP code
      await expect(form.getByRole('button', { name: /^94110 · San Francisco, CA$/ })).toBeVisible();
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
      // The streets are real, so the links say what the incidents are.
      expect(csv).toContain('https://synthetic-demo.crime.example.test/incident/');
      expect(csv).toMatch(/\d+ BLOCK OF [A-Z0-9 ]+ (ST|AVE|BLVD)\b/);
      expect(csv).toContain('America/Los_Angeles');
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
