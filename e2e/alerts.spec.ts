/**
 * Alerts in the page, against the simulator: a rule made in the Alerts view (tested against the
 * archive before it is saved), a sync that brings new incidents to the area (the simulator's
 * evolve()), the unread count in the sidebar, the browser notification (the page's Notification is
 * replaced by a recorder before the app loads; the user allows it with the view's button), and the
 * alert opened on the map showing exactly its incidents.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startSimulator, type Simulator } from '../src-sim/index';
import { expect, test } from './fixtures';
import { addAreaByCoordinates, connectEnterprise, openSyncPlan, openView } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const KEY = 'alerts-e2e-key';
const RATE = 6000;
const LOOP = { lat: 41.8837, lon: -87.6289, radiusMi: 0.5 };

let sim: Simulator | null = null;
let hookServer: Server | null = null;
test.afterEach(async () => {
  await sim?.close();
  sim = null;
  await new Promise((r) => (hookServer ? hookServer.close(r) : r(undefined)));
  hookServer = null;
});

type Received = {
  key: string | undefined;
  body: { id: string; rule: { name: string }; incidents: unknown[] };
};

/** A webhook receiver on loopback: what it was sent. */
async function startHook(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(body) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => hookServer!.listen(0, '127.0.0.1', r));
  const address = hookServer.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/incoming/secret-path`, received };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS_DIR, `alerts-${name}.png`) });

/** Replaces the page's Notification with one that records what it was asked to show. */
const RECORD_NOTIFICATIONS = () => {
  const shown: { title: string; body: string }[] = [];
  let permission: NotificationPermission = 'default';
  class Recorder {
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string }) {
      shown.push({ title, body: options?.body ?? '' });
    }
    static get permission() {
      return permission;
    }
    static async requestPermission() {
      permission = 'granted';
      return permission;
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recorder, configurable: true, writable: true });
  (window as unknown as { __notifications: typeof shown }).__notifications = shown;
};

async function syncArea(page: Page): Promise<void> {
  await openView(page, 'Areas');
  const card = page.getByTestId('area-card').first();
  const plan = await openSyncPlan(card);
  await plan.getByRole('button', { name: 'Start sync' }).click();
  await expect(card.locator('[data-sync-state="done"]')).toBeVisible({ timeout: 60_000 });
}

test('a rule made in the page fires on a sync: inbox count, notification, its incidents on the map', async ({
  page,
}) => {
  test.setTimeout(180_000);
  sim = await startSimulator({
    seed: 11,
    scale: 'small',
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE }],
  });
  await page.addInitScript(RECORD_NOTIFICATIONS);
  await page.reload();
  await expect(page.locator('body[data-app-ready="true"]')).toBeVisible();

  await test.step('configure the API and add an area by coordinates; its first sync is old news', async () => {
    await connectEnterprise(page, { url: sim?.url ?? '', rate: RATE, key: KEY });

    await addAreaByCoordinates(page, LOOP, 'The Loop');
    await syncArea(page);
  });

  await test.step('make a rule in Alerts, see its test against the archive, save it; allow notifications', async () => {
    await openView(page, 'Alerts');
    await expect(page.getByRole('note')).toContainText(
      'only while Blotter is open or a command-line sync runs',
    );
    await page.getByRole('button', { name: 'Show desktop notifications for new alerts' }).click();
    await expect(
      page.getByRole('button', { name: 'Show desktop notifications for new alerts' }),
    ).toBeHidden();

    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New alert rule' });
    await form.getByLabel('Name').fill('Anything new in the Loop');
    await form.getByLabel('Area').selectOption({ label: 'The Loop' });
    await expect(form.getByRole('button', { name: 'Save rule' })).toBeDisabled();
    await form.getByRole('button', { name: 'Test against the last 90 days' }).click();
    await expect(form.getByTestId('rule-test-result')).toContainText(
      /This rule would have fired [1-9][\d,]* times in the last 90 days/,
    );
    await shot(page, '01-rule-tested');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await expect(page.getByRole('list', { name: 'Alert rules' })).toContainText('Anything new in the Loop');
    await expect(page.getByTestId('unread-alerts')).toHaveCount(0);
  });

  const hook = await startHook();
  await test.step('send alerts to a webhook: its URL goes to the keychain and is never shown again', async () => {
    const form = page.getByRole('form', { name: 'Webhook' });
    await form.getByLabel('POST each alert as JSON').check();
    await form.getByLabel('Webhook URL').fill(hook.url);
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await expect(page.getByText('Webhook saved.')).toBeVisible();
    await expect(form.getByLabel('Webhook URL')).toHaveValue('');
    await expect(form.getByLabel('Webhook URL')).toHaveAttribute('placeholder', /Stored in the keychain/);
    await expect(page.locator('body')).not.toContainText('secret-path');
  });

  let added = 0;
  await test.step('new incidents reach the area; a sync raises one alert: the count and the notification', async () => {
    const deg = LOOP.radiusMi / 69 / Math.cos((LOOP.lat * Math.PI) / 180) / 1.5;
    const evolved = sim!.evolve({
      add: 4,
      amend: 0,
      remove: 0,
      area: { lat: LOOP.lat, lon: LOOP.lon, radiusDeg: deg },
    }).added;
    // evolve() also brings what occurred since the data was made, anywhere and maybe not yet reported
    // (more of it the longer the run has taken): the alert owes only those in the Loop, reported now.
    const truth = new Set(sim!.groundTruth({ ...LOOP }).map((t) => t.cdid));
    added = evolved.filter((c) => truth.has(c)).length;
    expect(added).toBeGreaterThanOrEqual(4); // the four added inside the Loop
    await syncArea(page);
    await expect(page.getByTestId('unread-alerts')).toHaveText('1');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __notifications: unknown[] }).__notifications))
      .toEqual([
        expect.objectContaining({
          title: 'Blotter alert: Anything new in the Loop',
          body: expect.stringMatching(/^[1-9]\d* incidents?\. 1 unread in Alerts\.$/),
        }),
      ]);
  });

  await test.step('the webhook received the alert once, keyed by its id; the delivery log says delivered', async () => {
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(1);
    const [got] = hook.received;
    expect(got!.key).toBe(got!.body.id);
    expect(got!.body.rule.name).toBe('Anything new in the Loop');
    await openView(page, 'Alerts');
    await expect(page.getByRole('list', { name: 'Delivery log' })).toContainText(/webhook · .* · delivered/);
  });

  await test.step('open the alert on the map: exactly its incidents; the alert is read', async () => {
    await openView(page, 'Alerts');
    const item = page.getByTestId('alert-item').first();
    await expect(item).toContainText('Anything new in the Loop');
    const incidents = Number(/(\d+) incidents?/.exec((await item.textContent()) ?? '')?.[1]);
    expect(incidents).toBeGreaterThanOrEqual(added);
    await shot(page, '02-inbox');
    await item.getByRole('button', { name: 'Show on map' }).click();
    await expect(page).toHaveURL(/#\/map$/);
    await expect(page.getByTestId('filter-incidents')).toContainText(`Only the ${incidents} incident`);
    const count = page.getByTestId('filtered-count');
    await expect(count).toHaveAttribute('data-loading', 'false');
    await expect(count.locator('strong')).toHaveText(String(incidents));
    await expect(page.getByTestId('unread-alerts')).toHaveCount(0);
    await shot(page, '03-on-map');
  });
});
