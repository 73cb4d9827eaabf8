/**
 * Cancel during an import's writing, end to end on the built app (issue 31): the merge on the
 * helper thread is stopped at once, its transaction rolls back, the page says so in words, and the
 * archive holds what it held before. The preview stays: importing it again then works.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { openView } from './support/app';

const BASE = 9_000_000;

/** Local wall time `daysAgo` days before today (within the default 90-day view). */
function recentLocal(daysAgo: number): string {
  return `${new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)}T10:30`;
}

function csv(first: number, rows: number): string {
  const lines = ['cdid,type,occurred_local,timezone,address,lat,lon,link,description'];
  for (let k = 0; k < rows; k++)
    lines.push(
      `${first + k},Theft,${recentLocal(2 + (k % 60))},America/Chicago,${100 + (k % 90) * 100} N CLARK ST,` +
        `${(41.7 + (k % 400) / 2000).toFixed(6)},${(-87.8 + (k % 577) / 2000).toFixed(6)},,`,
    );
  return `${lines.join('\n')}\n`;
}

test('Cancel stops an import while it writes: nothing is written, and it can be imported again', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(180_000);
  const small = path.join(dataDir, 'small.csv');
  const large = path.join(dataDir, 'large.csv');
  writeFileSync(small, csv(1_000, 50));
  writeFileSync(large, csv(BASE, 30_000));
  await openView(page, 'Export');
  await page.getByTestId('import-file').setInputFiles(small);
  await page.getByRole('button', { name: /^Import 50 incidents/ }).click();
  await expect(page.getByTestId('import-outcome')).toContainText('Imported: 50 new', { timeout: 60_000 });
  await expect(page.getByTestId('export-count')).toHaveText('50');

  // The merge lasts: heavy work for one imported row in 1,000, on the helper thread's connection.
  const db = new Database(path.join(dataDir, 'blotter.sqlite'));
  db.pragma('busy_timeout = 10000');
  const archived = () => db.prepare('SELECT count(*) FROM incidents').pluck().get();
  try {
    db.exec(`CREATE TRIGGER slow_import AFTER INSERT ON incidents
      WHEN new.cdid >= ${BASE} AND new.cdid % 1000 = 0 BEGIN
        SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT x FROM c);
      END`);
    await page.getByTestId('import-file').setInputFiles(large);
    const importButton = page.getByRole('button', { name: /^Import 30,000 incidents/ });
    await importButton.click({ timeout: 60_000 });
    await expect(page.getByText('Writing 30,000 rows into the archive…')).toBeVisible();
    const asked = Date.now();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByTestId('import-outcome')).toHaveText('Import cancelled; nothing was written.', {
      timeout: 20_000,
    });
    // At once, not after the 30 slow rows (uncancelled, the merge took 14 s at load 7).
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(archived()).toBe(50);
    await expect(page.getByTestId('export-count')).toHaveText('50');

    // The preview is still there: without the slow trigger it imports whole.
    db.exec('DROP TRIGGER slow_import');
    await importButton.click();
    await expect(page.getByTestId('import-outcome')).toContainText('Imported: 30,000 new', {
      timeout: 60_000,
    });
    expect(archived()).toBe(30_050);
  } finally {
    db.close();
  }
});
