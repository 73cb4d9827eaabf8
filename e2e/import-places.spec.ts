/**
 * Rows without coordinates in the Import view (issue 28, item 4): a records-system CSV whose two
 * rows have an address but no coordinates imports them as unplaced; the Import view counts and
 * lists them with why; an address points file added from the page places them (the count drops,
 * the incidents appear in the Table); "Try again" says what it did.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openView } from './support/app';

/** YYYY-MM-DD HH:MM, `daysAgo` days before today. */
const when = (daysAgo: number, hour: number) =>
  `${new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:15`;

test('rows without coordinates wait as unplaced, listed with why, and an address points file places them', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(90_000);
  const csv = path.join(dataDir, 'rms-export.csv');
  writeFileSync(
    csv,
    [
      'Case Number,Offense,Date,Address,Latitude,Longitude',
      `C-1,Burglary,${when(2, 9)},100 N MAIN ST,41.881,-87.631`,
      `C-2,Robbery,${when(3, 10)},300 N MAIN ST,41.884,-87.631`,
      `C-3,Theft,${when(4, 11)},120 ELM AVE,,`,
      `C-4,Assault,${when(5, 12)},340 ELM AVE,,`,
    ].join('\n') + '\n',
  );
  await openView(page, 'Export');
  await page.getByTestId('import-file').setInputFiles(csv);
  await page.getByRole('button', { name: 'Import 2 incidents and 2 unplaced' }).click();
  await expect(page.getByTestId('import-outcome')).toBeVisible();

  const count = page.getByTestId('unplaced-count');
  const list = page.getByTestId('unplaced-list');
  await test.step('the Import view counts the unplaced rows and lists them with why', async () => {
    await expect(count).toHaveText('2 rows wait for a place');
    await expect(list.getByRole('row').filter({ hasText: '120 ELM AVE' })).toContainText(
      'no coordinates (Latitude, Longitude blank)',
    );
    await expect(list.getByRole('row').filter({ hasText: '340 ELM AVE' })).toContainText('Assault');
  });

  await test.step('"Try again" with nothing that knows Elm Ave places none, and says so', async () => {
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByTestId('unplaced-outcome')).toHaveText(
      'Placed 0 of 2 unplaced rows; 2 still unplaced.',
    );
    await expect(count).toHaveText('2 rows wait for a place');
  });

  await test.step('a file that is no reference is refused beside the controls, and nothing changes', async () => {
    const notPoints = path.join(dataDir, 'not-points.csv');
    writeFileSync(notPoints, 'colour,size\nred,3\n');
    await page.getByTestId('place-reference-file').setInputFiles(notPoints);
    await expect(page.getByTestId('unplaced-problem')).toHaveText(
      'An address point file needs a house number and a street (or one address column) and latitude/longitude; it has colour, size.',
    );
    await expect(page.getByTestId('unplaced-problem')).toHaveAttribute('role', 'alert');
    await expect(count).toHaveText('2 rows wait for a place');
  });

  await test.step('an address points file added from the page places them', async () => {
    const points = path.join(dataDir, 'address-points.csv');
    writeFileSync(
      points,
      [
        'ADD_NUMBER,STREET_NAME,LATITUDE,LONGITUDE',
        '120,Elm Avenue,41.882,-87.64',
        '340,Elm Avenue,41.886,-87.64',
      ].join('\n') + '\n',
    );
    await page.getByTestId('place-reference-file').setInputFiles(points);
    await expect(page.getByTestId('unplaced-problem')).toHaveCount(0);
    await expect(page.getByTestId('unplaced-outcome')).toHaveText(
      'Added 2 address points. Placed 2 of 2 unplaced rows (address point 2); 0 still unplaced.',
    );
    await expect(count).toHaveText('No row waits for a place');
    await expect(list).toHaveCount(0);
  });

  await test.step('the placed rows are incidents in the Table', async () => {
    await openView(page, 'Table');
    const grid = page.getByTestId('incident-table');
    await expect(grid).toHaveAttribute('data-total', '4');
    await expect(grid.getByRole('row').filter({ hasText: '120 ELM AVE' })).toContainText('Theft');
    await expect(grid.getByRole('row').filter({ hasText: '340 ELM AVE' })).toContainText('Assault');
  });
});

test('an address-only file imports as proposed: no coordinates, every row unplaced', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(60_000);
  const csv = path.join(dataDir, 'Crime_Data.csv');
  writeFileSync(
    csv,
    [
      'IncidentID,Offense,BlockNumber,StreetName,DateReported',
      `202200030104,Burglary,800,ELLIOTT AVE,${when(2, 9)}`,
      `202200030105,Robbery,200,E MARKET ST,${when(3, 10)}`,
    ].join('\n') + '\n',
  );
  await openView(page, 'Export');
  await page.getByTestId('import-file').setInputFiles(csv);
  await expect(
    page.getByRole('radio', {
      name: 'No coordinates: the rows import as unplaced, to be placed offline',
    }),
  ).toBeChecked();
  await page.getByRole('button', { name: 'Import 0 incidents and 2 unplaced' }).click();
  await expect(page.getByTestId('unplaced-count')).toHaveText('2 rows wait for a place');
  await expect(
    page.getByTestId('unplaced-list').getByRole('row').filter({ hasText: '800 ELLIOTT AVE' }),
  ).toContainText('the file has no location columns');
});
