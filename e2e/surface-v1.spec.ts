/**
 * The v1 surface in the page: with the service's v1 switched on, an area's first sync — whose first
 * page shows a backfill too small for v1 to make cheaper — stays on live without spending the probe;
 * the next sync probes and verifies v1 and runs over it; the card says "v1", shows the service's
 * safety score and 12-week trend, and offers the 36-month backfill with its request count first,
 * which then runs.
 */
import path from 'node:path';
import { startSimulator, type Simulator } from '../src-sim/index';
import { expect, test } from './fixtures';
import { addAreaByCoordinates, connectEnterprise, openSyncPlan } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const KEY = 'surface-e2e-key';
const RATE = 6000;
const LOOP = { lat: 41.8837, lon: -87.6289, radiusMi: 0.5 };

let sim: Simulator | null = null;
test.afterEach(async () => {
  await sim?.close();
  sim = null;
});

test('an area syncs over a verified v1: the card shows v1, the score and trend, and the history offer', async ({
  page,
}) => {
  test.setTimeout(180_000);
  sim = await startSimulator({
    seed: 11,
    scale: 'small',
    spanDays: 200,
    v1: true,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE, windowDays: 90 }],
  });

  await connectEnterprise(page, { url: sim.url, rate: RATE, key: KEY });

  await addAreaByCoordinates(page, LOOP, 'The Loop');

  const card = page.getByTestId('area-card').first();
  const plan = await openSyncPlan(card);
  await plan.getByRole('button', { name: 'Start sync' }).click();
  await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('surface-badge')).toHaveText('live');

  const again = await openSyncPlan(card);
  await again.getByRole('button', { name: 'Start sync' }).click();
  await expect(card.getByTestId('surface-badge')).toHaveText('v1', { timeout: 60_000 });
  await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('area-score')).toContainText(/Safety score \d+ \([A-F]\) within [\d.]+ mi/);
  await expect(card.getByTestId('area-trend')).toHaveAttribute('aria-label', /Incidents per week, last 12: /);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'surface-v1-card.png') });

  await card.getByRole('button', { name: 'Backfill 36 months…' }).click();
  const history = card.getByTestId('history-plan');
  await expect(history.getByTestId('history-requests')).toContainText(/At most about [\d,]+ requests/);
  await expect(history.getByTestId('history-refused')).toHaveCount(0);
  await history.getByRole('button', { name: 'Start backfill' }).click();
  await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('surface-badge')).toHaveText('v1');
});
