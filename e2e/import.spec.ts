/**
 * A large archive import, end to end on the built app: a 10 MB Blotter CSV uploaded through the
 * Export view is previewed on the check threads (importWorker.js), imported into the empty archive
 * (its R*Tree built again through SQLite in Hilbert order) and the log checkpointed afterwards
 * (checkpointWorker.js); the archive then holds exactly the valid rows, searchable by place and text,
 * and exports them back whole (exportWorker.js beside the engine thread).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { openView } from './support/app';

const ROWS = 70_000;
const BAD = [12_345, 54_321]; // row numbers of the two bad rows

/** Local wall time `daysAgo` days before today, at `hour`:30 (within the default 90-day view). */
function recentLocal(daysAgo: number, hour: number): string {
  const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  return `${day}T${String(hour).padStart(2, '0')}:30`;
}

function archiveCsv(): string {
  const lines = ['cdid,type,occurred_local,timezone,address,lat,lon,link,description'];
  let row = 0;
  for (let k = 0; k < ROWS; k++) {
    if (BAD.includes(row + 1)) {
      row++;
      lines.push(`${8_000_000 + k}x,Theft,${recentLocal(3, 10)},America/Chicago,1 BAD ST,41.8,-87.6,,`);
    }
    row++;
    const cdid = 8_000_000 + k;
    const lat = (41.7 + (k % 400) / 2000).toFixed(6);
    const lon = (-87.8 + (k % 577) / 2000).toFixed(6);
    const description = k % 10 === 0 ? `"Window broken, ""items"" taken ${k}"` : '';
    lines.push(
      `${cdid},${k % 3 ? 'Theft' : 'Burglary'},${recentLocal(2 + (k % 60), k % 24)},America/Chicago,` +
        `${100 + (k % 90) * 100} BLOCK OF N CLARK ST,${lat},${lon},https://crime.example.test/i/${cdid},${description}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

test('a 10 MB archive previews on several threads and imports whole', async ({ page, dataDir }) => {
  test.setTimeout(120_000);
  const csv = path.join(dataDir, 'archive.csv');
  writeFileSync(csv, archiveCsv());
  await openView(page, 'Export');
  await page.getByTestId('import-file').setInputFiles(csv);
  const preview = page.getByTestId('import-preview');
  await expect(preview).toContainText('Blotter CSV export', { timeout: 60_000 });
  await expect(preview).toContainText('70,002');
  const errors = page.getByTestId('import-errors');
  for (const row of BAD) await expect(errors).toContainText(String(row));
  await expect(errors).toContainText('cdid must be a number');

  await page.getByRole('button', { name: /^Import 70,000 incidents/ }).click();
  await expect(page.getByTestId('import-outcome')).toContainText(
    'Imported: 70,000 new, 0 updated, 0 already held, 2 bad rows skipped',
    { timeout: 60_000 },
  );

  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  try {
    expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(ROWS);
    expect(
      db
        .prepare('SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90')
        .pluck()
        .get(),
    ).toBe(ROWS);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(
      db
        .prepare(`SELECT count(*) FROM incidents_fts WHERE incidents_fts MATCH '"items taken"'`)
        .pluck()
        .get(),
    ).toBe(ROWS / 10);
    expect(db.prepare('SELECT * FROM incidents WHERE cdid = 8000010').get()).toMatchObject({
      type: 'Theft',
      occurred_local: recentLocal(12, 10),
      timezone: 'America/Chicago',
      description: 'Window broken, "items" taken 10',
      source: 'import',
    });
  } finally {
    db.close();
  }
  const log = readFileSync(path.join(dataDir, 'logs', 'blotter.log'), 'utf8');
  expect(log).toMatch(/import read .*"parallel":true/);
  expect(log).not.toMatch(/no checkpoint thread|checkpoint failed/);
  await expect
    .poll(() =>
      /log checkpointed in the background/.test(
        readFileSync(path.join(dataDir, 'logs', 'blotter.log'), 'utf8'),
      ),
    )
    .toBe(true);
  expect(readdirSync(path.join(dataDir, 'imports')).filter((f) => f.includes('.stage-'))).toEqual([]);

  // And back out: a CSV of all 70,000 (written by the export thread and the engine thread in turn).
  const label = page.getByTestId('export-count');
  await expect(label).toHaveText('70,000');
  await page.getByRole('radio', { name: /^CSV/ }).check();
  await page.getByRole('button', { name: /^Export/ }).click();
  await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 60_000,
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const exported = path.join(dataDir, 'exported.csv');
  await download.saveAs(exported);
  const lines = readFileSync(exported, 'utf8').split('\r\n');
  expect(lines[0]).toMatch(/^cdid,type,occurred_local,timezone,occurred_utc,/);
  expect(lines.at(-1)).toBe('');
  expect(lines).toHaveLength(ROWS + 2); // header, rows, and the empty string after the last CRLF
  expect(lines.slice(1, -1).map((l) => Number(l.split(',')[0]))).toEqual(
    Array.from({ length: ROWS }, (_, k) => 8_000_000 + k),
  );
  expect(lines[11]).toContain(`,"Window broken, ""items"" taken 10",`);
  expect(readFileSync(path.join(dataDir, 'logs', 'blotter.log'), 'utf8')).not.toMatch(
    /export threads failed/,
  );
});
