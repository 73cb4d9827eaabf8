/**
 * Emailed bulletins in the page: the Alerts view, under the mail settings they use, schedules an
 * area's weekly report (a weekday and a local time in the area's zone, the paper, recipients),
 * lists it with its zone and next time, and removes it; and one for a feature of a boundary layer
 * (a beat), chosen with the Layer and Feature selects beside the area's.
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

test('a weekly bulletin is scheduled for an area in its zone, listed, removed, and scheduled for a beat of a layer', async ({
  page,
}) => {
  test.setTimeout(180_000);
  sim = await startSimulator({
    seed: 3,
    scale: 'small',
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: RATE }],
  });
  await connectEnterprise(page, { url: sim.url, rate: RATE, key: KEY });
  await addAreaByCoordinates(page, { lat: 41.8837, lon: -87.6289, radiusMi: 0.5 }, 'The Loop');
  await expect(page.getByTestId('area-card').first()).toBeVisible();

  // A "Beats" layer with one beat, kept in the Layers panel.
  const ring = [
    [-87.64, 41.87],
    [-87.62, 41.87],
    [-87.62, 41.89],
    [-87.64, 41.89],
    [-87.64, 41.87],
  ];
  await openView(page, 'Map');
  // By keyboard: before the first sync the map's empty-state card lies over the Layers panel.
  await page.getByRole('button', { name: /^Layers/ }).press('Enter');
  await page.getByTestId('boundary-file').setInputFiles({
    name: 'beats.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { BEAT: 'Beat 7' },
            geometry: { type: 'Polygon', coordinates: [ring] },
          },
        ],
      }),
    ),
  });
  const preview = page.getByTestId('boundary-preview');
  await preview.getByLabel('Layer name').fill('Beats');
  await preview.getByRole('button', { name: 'Keep as reference layer' }).press('Enter');
  await expect(page.getByTestId('boundary-outcome')).toHaveText('Layer "Beats" kept: 1 feature.');

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

  // One beat of the layer instead of an area: the area's select steps aside.
  await form.getByLabel('Or a layer’s feature: Layer').selectOption({ label: 'Beats' });
  await expect(form.getByLabel('Area', { exact: true })).toBeDisabled();
  await form.getByLabel('Feature', { exact: true }).selectOption({ label: 'Beat 7' });
  await form.getByRole('button', { name: 'Schedule bulletin' }).click();
  await expect(list).toContainText('Beats: Beat 7');
  await expect(list).toContainText('every Monday 07:00 (America/Chicago) · Letter · to the alert recipients');
});
