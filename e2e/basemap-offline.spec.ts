/**
 * The offline street map beyond the first download:
 *
 * 1. After a restart of the host with the simulator that served the streets stopped, the demo map
 *    at zoom 15 still draws roads and street names — from <data>/basemap/areas.pmtiles, with every
 *    non-loopback request blocked and the stored basemap source refusing connections.
 * 2. Adding an area the extract does not reach: its card offers "Extend offline map to this area",
 *    shows the estimate first (tiles kept from the extract already there), downloads, and the new
 *    area shows streets at zoom 15 where it showed none before.
 *
 * Screenshots: e2e/artifacts/basemap-restart-z15.png, basemap-extended-z15.png.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForAppReady } from './support/appReady';
import {
  blockTheInternet,
  DEMO_DOWNTOWN,
  expectStreets,
  mapAt,
  roadPixels,
  startDemoWithStreets,
  waitForDemoStreets,
} from './support/basemapPixels';
import { launch, type Running } from './support/launch';
import { ARTIFACTS_DIR } from './support/paths';

/** About 6 km west of the demo areas (downtown and the Mission): the Sunset, inside the demo city's archive. */
const SUNSET = { lat: 37.752, lon: -122.485 };
/** The map's centre for the checks: the pixels counted lie left of it, so this puts the Sunset mid-count. */
const SUNSET_VIEW = { lat: SUNSET.lat, lon: SUNSET.lon + 0.008 };

const nav = (page: Page, view: string) =>
  page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view }).click();

/** The basemap source URL stored in the folder, as Settings › Map shows it. */
async function storedSource(page: Page): Promise<string> {
  await nav(page, 'Settings');
  const field = page.getByTestId('areas-download').getByLabel('Basemap source (PMTiles URL)');
  await expect(field).not.toHaveValue('');
  return field.inputValue();
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { headers: { Range: 'bytes=0-15' }, signal: AbortSignal.timeout(5_000) });
    return false;
  } catch {
    return true;
  }
}

/** "Remove demo data": the demo's keychain entry and folder go (a test leaves nothing behind). */
async function removeDemo(page: Page): Promise<void> {
  const banner = page.getByTestId('demo-banner');
  await banner.getByRole('button', { name: 'Remove demo data…' }).click();
  await page
    .getByRole('dialog', { name: 'Remove the demo data?' })
    .getByRole('button', { name: 'Remove demo data' })
    .click();
  await expect(page.getByTestId('welcome')).toBeVisible({ timeout: 60_000 });
}

test.afterEach(async ({ dataDir }) => {
  await rm(`${dataDir}-demo`, { recursive: true, force: true });
});

test('after a restart with the simulator stopped, the demo map still draws its streets at zoom 15', async ({
  target,
  dataDir,
  hostLogs,
  pageLogs,
  hostEnv,
}) => {
  test.setTimeout(240_000);
  const demoDir = `${dataDir}-demo`;
  let running: Running | null = await launch(target, dataDir, { hostLogs, pageLogs, hostEnv });
  try {
    let page = running.page;
    await startDemoWithStreets(page);
    const source = await storedSource(page);
    expect(await refused(source)).toBe(false); // the demo's simulator serves it now

    await test.step('the host stops (and the simulator in it); a new one opens the demo folder', async () => {
      await running!.close();
      running = null;
      expect(await refused(source)).toBe(true);
      running = await launch(target, demoDir, { hostLogs, pageLogs, hostEnv });
      page = running.page;
      await page.setViewportSize({ width: 1280, height: 900 });
      await waitForAppReady(page);
    });

    const blocked = await blockTheInternet(page);
    await waitForDemoStreets(page);
    await mapAt(page, DEMO_DOWNTOWN, 15);
    await expectStreets(page);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-restart-z15.png') });
    expect(blocked).toEqual([]);
    // Still the source it was downloaded from, and it is gone: the streets came from the file.
    expect(await storedSource(page)).toBe(source);
    expect(await refused(source)).toBe(true);
    // (The demo folder goes in afterEach; this host was started on it, so it is not removed here.)
  } finally {
    await running?.close();
  }
});

test('adding an area beyond the offline streets offers to extend them, and the new area then has streets', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const blocked = await blockTheInternet(page);
  await startDemoWithStreets(page);

  await test.step('the Sunset has no streets yet at zoom 15', async () => {
    await mapAt(page, SUNSET_VIEW, 15);
    await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready');
    expect(await roadPixels(page)).toBeLessThan(1_000);
  });

  await test.step('an area is added there; its card offers to extend the offline map', async () => {
    await nav(page, 'Areas');
    const demoCard = page.getByTestId('area-card').filter({ hasText: 'Downtown San Francisco (demo)' });
    await expect(demoCard).toBeVisible();
    await page.getByRole('button', { name: 'Add an area…' }).click();
    await page
      .getByRole('group', { name: 'How to choose the area' })
      .getByRole('button', { name: 'Coordinates' })
      .click();
    await page.getByLabel('Centre (latitude, longitude)').fill(`${SUNSET.lat}, ${SUNSET.lon}`);
    await page.getByLabel('Radius (miles)').fill('0.5');
    await page.getByLabel('Name').fill('Sunset');
    await page.getByRole('button', { name: 'Add area' }).click();

    const card = page.getByTestId('area-card').filter({ hasText: 'Sunset' });
    const offer = card.getByTestId('streets-offer');
    await expect(offer).toContainText('Your offline map does not reach this area yet');
    await expect(demoCard.getByTestId('streets-offer')).toHaveCount(0); // the demo area is covered

    await offer.getByRole('button', { name: 'Extend offline map to this area' }).click();
    const estimate = offer.getByTestId('streets-offer-estimate');
    await expect(estimate).toContainText(/About [\d,]+ tiles, [\d.]+ MB, for 3 areas/);
    await expect(estimate).toContainText(/[\d,]+ tiles are already here and are kept/);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-extend-offer.png') });
    await offer.getByRole('button', { name: 'Download' }).click();
    await expect(offer.getByTestId('streets-offer-progress')).toHaveAttribute('data-state', 'done', {
      timeout: 90_000,
    });
    await expect(offer).toContainText('The map now shows the streets of your areas');
  });

  await test.step('the Sunset now shows roads and street names at zoom 15', async () => {
    await nav(page, 'Map');
    await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready', { timeout: 60_000 });
    await mapAt(page, SUNSET_VIEW, 15);
    await expectStreets(page);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'basemap-extended-z15.png') });
    // Reopened, the Areas view no longer offers it: both areas are covered.
    await nav(page, 'Areas');
    await expect(page.getByTestId('area-card').filter({ hasText: 'Sunset' })).toBeVisible();
    await expect(page.getByTestId('streets-offer')).toHaveCount(0);
  });
  expect(blocked).toEqual([]);
  await removeDemo(page);
});
