/**
 * A city's categories in the Import view (issue 28, item 3): San Francisco's Incident Category is
 * proposed with a type map from the built-in vocabulary (Larceny Theft → Theft, Malicious Mischief →
 * Vandalism; Drug Offense kept as it is), the analyst changes an entry in the value map, the preview
 * follows, and the imported incidents keep the file's category as their subtype — in the table's
 * Subtype column and the incident panel.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openView } from './support/app';

/** YYYY/MM/DD hh:mm:ss AM/PM (DataSF's Incident Datetime), `daysAgo` days before today. */
function sfDate(daysAgo: number, hour: number): string {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${d.getUTCFullYear()}/${mm}/${dd} ${String(h12).padStart(2, '0')}:25:00 ${hour < 12 ? 'AM' : 'PM'}`;
}

const ROWS = [
  { id: '101', category: 'Larceny Theft', at: 'MARKET ST \\ 5TH ST', lat: 37.7841, lon: -122.4075 },
  { id: '102', category: 'Larceny Theft', at: 'MISSION ST \\ 16TH ST', lat: 37.765, lon: -122.4196 },
  { id: '103', category: 'Malicious Mischief', at: 'OAK ST \\ DIVISADERO ST', lat: 37.7729, lon: -122.4378 },
  { id: '104', category: 'Drug Offense', at: '24TH ST \\ MISSION ST', lat: 37.7524, lon: -122.4184 },
];

test('a city’s categories: the vocabulary’s type map proposed, changed in the preview, the category kept as the subtype', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(90_000);
  const csv = path.join(dataDir, 'Police_Department_Incident_Reports.csv');
  writeFileSync(
    csv,
    [
      'Row ID,Incident Datetime,Incident Category,Intersection,Latitude,Longitude',
      ...ROWS.map((r, k) => `${r.id},${sfDate(2 + k, 9 + k)},${r.category},${r.at},${r.lat},${r.lon}`),
    ].join('\r\n') + '\r\n',
  );
  await openView(page, 'Export');
  await page.getByTestId('import-file').setInputFiles(csv);
  const values = page.getByTestId('value-map');
  const preview = page.getByTestId('import-preview');

  await test.step('the proposal maps the categories the vocabulary knows and keeps the rest', async () => {
    await expect(page.getByTestId('mapping-editor').getByLabel('Type (offence)')).toHaveValue(
      'Incident Category',
    );
    await expect(values.getByLabel('Type for Larceny Theft')).toHaveValue('Theft');
    await expect(values.getByLabel('Type for Malicious Mischief')).toHaveValue('Vandalism');
    await expect(values.getByLabel('Type for Drug Offense')).toHaveValue('');
    await expect(preview.locator('.import-sample')).toContainText('Theft (Larceny Theft)');
    await expect(preview.locator('.import-sample')).toContainText('Vandalism (Malicious Mischief)');
  });

  await test.step('the analyst changes the map and the preview follows', async () => {
    await values.getByLabel('Type for Malicious Mischief').selectOption('');
    await values.getByLabel('Type for Drug Offense').selectOption({ label: 'A new type…' });
    await values.getByLabel('New type for Drug Offense').fill('Narcotics');
    await expect(preview.locator('.import-sample')).toContainText('Narcotics (Drug Offense)');
    await expect(preview.locator('.import-sample')).not.toContainText('Vandalism');
    await page.getByRole('button', { name: 'Import 4 incidents' }).click();
    await expect(page.getByTestId('import-outcome')).toContainText('Imported: 4 new');
  });

  await test.step('the table shows each incident’s subtype, and the panel too', async () => {
    await openView(page, 'Table');
    const grid = page.getByTestId('incident-table');
    await expect(grid).toHaveAttribute('data-total', '4');
    // Subtype is one of the column chooser's columns (not shown by default).
    await page.getByRole('button', { name: /Columns/ }).click();
    await page.getByRole('checkbox', { name: 'Subtype', exact: true }).check();
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('columnheader', { name: 'Subtype' })).toBeVisible();
    const row = grid.getByRole('row').filter({ hasText: 'MARKET ST' });
    await expect(row).toContainText('Theft');
    await expect(row).toContainText('Larceny Theft');
    await expect(grid.getByRole('row').filter({ hasText: 'OAK ST' })).toContainText('Malicious Mischief');
    await row.click();
    const panel = page.getByTestId('incident-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('Subtype');
    await expect(panel).toContainText('Larceny Theft');
  });
});
