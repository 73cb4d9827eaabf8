/**
 * Emailed bulletins in the page: the Alerts view, under the mail settings they use, schedules an
 * area's weekly report (a weekday and a local time in the area's zone, the paper, recipients),
 * lists it with its zone and next time, and removes it.
 */
import { startSimulator, type Simulator } from '../src-sim/index';
import { expect, test } from './fixtures';
import { addAreaByCoordinates, connectEnterprise, openView } from './support/app';

const KEY = 'schedules-e2e-key';
const RATE = 6000;

let sim: Simulator | null = null;
test.afterEach(async () => {
  await sim?.close();
  sim = null;
});

test('a weekly bulletin is scheduled for an area in its zone, listed, and removed', async ({ page }) => {
  test.setTimeout(180_000);
  sim = await startSimulator({
    seed: 3,
    scale: 'small',
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE }],
  });
  await connectEnterprise(page, { url: sim.url, rate: RATE, key: KEY });
  await addAreaByCoordinates(page, { lat: 41.8837, lon: -87.6289, radiusMi: 0.5 }, 'The Loop');
  await expect(page.getByTestId('area-card').first()).toBeVisible();

  await openView(page, 'Alerts');
  const section = page.getByTestId('report-schedules');
  await expect(section.getByRole('heading', { name: 'Emailed bulletins' })).toBeVisible();
  await expect(section).toContainText('No bulletins scheduled.');
  const form = section.getByRole('form', { name: 'New bulletin schedule' });
  await form.getByLabel('Area', { exact: true }).selectOption({ label: 'The Loop' });
  await form.getByLabel('Every').selectOption({ label: 'Monday' });
  await form.getByLabel('Time (the area’s local time)').fill('07:00');
  await form.getByLabel('Paper').selectOption({ label: 'A4' });
  await form.getByLabel('To (optional; else the alert recipients)').fill('chief@office.example');
  await form.getByRole('button', { name: 'Schedule bulletin' }).click();

  const list = section.getByRole('list', { name: 'Report schedules' });
  await expect(list).toContainText('The Loop');
  await expect(list).toContainText('every Monday 07:00 (America/Chicago) · A4 · to chief@office.example');
  await expect(list).toContainText('next ');

  await list.getByRole('button', { name: 'Remove' }).click();
  await expect(section).toContainText('No bulletins scheduled.');
});
