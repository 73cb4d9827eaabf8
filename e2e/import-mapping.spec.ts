/**
 * Another system's file mapped in the page: a records-system CSV (Incident Number, Offense, Block
 * Address, Date Reported, X/Y in Illinois East State Plane US feet, EPSG:3435) is uploaded; the
 * Import view proposes a mapping from its columns, the user changes it (the coordinate system, a
 * column not kept, a value map from the offence codes to Blotter's types and a new type), the
 * preview follows, the user saves it and imports; the incidents are in the table and on the map at
 * their places. A second file with the same columns (other case and order) gets the saved mapping.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openView } from './support/app';

/** Places in Chicago (degrees) and their Illinois East X/Y in US feet, from PROJ's cs2cs. */
const PLACES = [
  { id: 'JA100001', code: '0486', address: '012XX N STATE ST', lat: 41.9045, lon: -87.6284 },
  { id: 'JA100002', code: '0820', address: '004XX W ERIE ST', lat: 41.8938, lon: -87.6395 },
  { id: 'JA100003', code: '0486', address: '016XX N CLARK ST', lat: 41.9115, lon: -87.6345 },
  { id: 'JA100004', code: '0560', address: '002XX E OHIO ST', lat: 41.8926, lon: -87.6208 },
  { id: 'JA100005', code: '0820', address: '001XX W RANDOLPH ST', lat: 41.8847, lon: -87.6321 },
];

function toStatePlane(lat: number, lon: number): { x: number; y: number } {
  const out = execFileSync('cs2cs', ['-f', '%.2f', 'EPSG:4269', 'EPSG:3435'], { input: `${lat} ${lon}\n` });
  const [x, y] = out.toString().trim().split(/\s+/).map(Number) as [number, number];
  return { x, y };
}

/** MM/DD/YYYY hh:mm AM/PM, `daysAgo` days before today (inside the default view). */
function usDate(daysAgo: number, hour: number): string {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${mm}/${dd}/${d.getUTCFullYear()} ${String(h12).padStart(2, '0')}:15 ${hour < 12 ? 'AM' : 'PM'}`;
}

function recordsCsv(): string {
  const lines = ['Incident Number,Offense,Block Address,Date Reported,X Coordinate,Y Coordinate,Beat,Ward'];
  PLACES.forEach((p, k) => {
    const { x, y } = toStatePlane(p.lat, p.lon);
    lines.push(`${p.id},${p.code},${p.address},${usDate(3 + k, 9 + k)},${x},${y},18${k}4,4${k}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}

async function moveTo(page: Page, lat: number, lon: number, zoom: number): Promise<void> {
  const map = page.getByTestId('map');
  const before = Number(await map.getAttribute('data-draws'));
  await page.evaluate(
    ([a, o, z]) => window.__blotterMapTest?.setView(a as number, o as number, z as number),
    [lat, lon, zoom],
  );
  await expect.poll(async () => Number(await map.getAttribute('data-draws'))).toBeGreaterThan(before);
}

test('a records-system export mapped in the page, imported, found on the table and map; its mapping proposed again', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(90_000);
  const csv = path.join(dataDir, 'cpd-may.csv');
  writeFileSync(csv, recordsCsv());
  await openView(page, 'Export');
  await page.getByTestId('import-file').setInputFiles(csv);

  const editor = page.getByTestId('mapping-editor');
  await test.step('the columns and a proposal are shown', async () => {
    await expect(editor).toBeVisible();
    await expect(page.getByTestId('file-columns')).toContainText('012XX N STATE ST');
    await expect(editor.getByLabel('Type (offence)')).toHaveValue('Offense');
    await expect(editor.getByLabel('Id')).toHaveValue('Incident Number');
    await expect(editor.getByLabel('Address')).toHaveValue('Block Address');
    await expect(editor.getByLabel('Date (and time)')).toHaveValue('Date Reported');
    await expect(editor.getByLabel('X (easting)')).toHaveValue('X Coordinate');
    // Illinois East (US feet) is among the zones the file's X/Y fall in.
    await expect(
      editor
        .getByLabel('Coordinate system', { exact: true })
        .locator('optgroup[label="Zones this file’s X/Y fall in"] option[value="3435"]'),
    ).toHaveCount(1);
    await expect(page.getByTestId('import-preview')).toContainText('through the mapping “cpd-may”');
  });

  await test.step('the user changes the mapping and the preview follows', async () => {
    await editor.getByLabel('Mapping name').fill('CPD');
    await editor.getByLabel('Coordinate system', { exact: true }).selectOption('3435');
    await editor.getByRole('checkbox', { name: /Ward/ }).uncheck();
    await expect(editor.getByRole('checkbox', { name: /Beat/ })).toBeChecked();
    const values = page.getByTestId('value-map');
    await expect(values.getByRole('row', { name: /0486/ })).toContainText('2');
    await values.getByLabel('Type for 0486').selectOption('Assault');
    await values.getByLabel('Type for 0820').selectOption('Theft');
    await values.getByLabel('Type for 0560').selectOption({ label: 'A new type…' });
    await values.getByLabel('New type for 0560').fill('Battery (RMS)');
    const preview = page.getByTestId('import-preview');
    await expect(preview).toContainText('through the mapping “CPD”');
    await expect(preview.locator('.import-sample')).toContainText('Battery (RMS)');
    await expect(preview.locator('.import-sample')).toContainText('Assault');
    await expect(preview.locator('.import-sample')).toContainText('America/Chicago');
    await expect(page.getByTestId('import-errors')).toHaveCount(0);
    await page.getByRole('button', { name: 'Save the mapping “CPD”' }).click();
    await expect(page.getByTestId('mapping-saved')).toContainText('Saved as “CPD”');
  });

  await test.step('nothing is written until the user confirms; then all five land', async () => {
    await page.getByRole('button', { name: 'Import 5 incidents' }).click();
    await expect(page.getByTestId('import-outcome')).toContainText('Imported: 5 new');
  });

  await test.step('the incidents are on the table', async () => {
    await openView(page, 'Table');
    const grid = page.getByTestId('incident-table');
    await expect(grid).toHaveAttribute('data-total', '5');
    for (const p of PLACES) await expect(grid).toContainText(p.address);
    await expect(grid).toContainText('Battery (RMS)');
  });

  await test.step('and on the map at their places', async () => {
    await openView(page, 'Map');
    const map = page.getByTestId('map');
    await expect(map).toHaveAttribute('data-map-state', 'ready', { timeout: 20_000 });
    const p = PLACES[3] as (typeof PLACES)[number];
    await moveTo(page, p.lat, p.lon, 18);
    const point = await page.evaluate(
      ([a, o]) => window.__blotterMapTest?.project(a as number, o as number),
      [p.lat, p.lon],
    );
    const box = await map.boundingBox();
    if (!point || !box) throw new Error('The map is not on screen.');
    await page.mouse.click(box.x + point.x, box.y + point.y);
    const panel = page.getByTestId('incident-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(p.address);
    await expect(panel).toContainText('Battery (RMS)');
    // Its provenance line and the columns kept from the file (Ward was not kept).
    await expect(panel.getByTestId('incident-provenance')).toContainText(
      'Imported from cpd-may.csv through the mapping “CPD”',
    );
    await expect(panel.getByTestId('incident-provenance')).toContainText(`its id there: ${p.id}`);
    await expect(panel.getByTestId('incident-attributes')).toContainText('Beat');
    await expect(panel.getByTestId('incident-attributes')).toContainText('1834');
    await expect(panel.getByTestId('incident-attributes')).not.toContainText('Ward');
  });

  await test.step('a file with the same columns gets the saved mapping proposed', async () => {
    const lines = recordsCsv().split('\r\n');
    const [, ...rest] = lines;
    const again = path.join(dataDir, 'cpd-june.csv');
    writeFileSync(
      again,
      [
        'INCIDENT NUMBER, offense ,Block Address,Date Reported,X Coordinate,Y Coordinate,Beat,Ward',
        ...rest,
      ].join('\r\n'),
    );
    await openView(page, 'Export');
    await page.getByTestId('import-file').setInputFiles(again);
    await expect(editor).toContainText('saved mapping “CPD”');
    await expect(editor.getByLabel('Mapping name')).toHaveValue('CPD');
    await expect(editor.getByLabel('Coordinate system', { exact: true })).toHaveValue('3435');
    await expect(page.getByTestId('value-map').getByLabel('Type for 0486')).toHaveValue('Assault');
    const preview = page.getByTestId('import-preview');
    await expect(preview).toContainText('through the mapping “CPD”');
    await expect(page.getByTestId('import-preview')).toContainText('Already in the archive');
  });
});
