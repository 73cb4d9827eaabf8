/**
 * Cancel of a rule's test against the archive, end to end on the built app (issue 31): a
 * near-repeat test over a dense archive lasts far longer than the test waits; while it runs the form
 * says so and offers Cancel, which stops it at once and says "Test cancelled." beside the buttons.
 * The Test button is back afterwards.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { openView } from './support/app';

const DAY = 86_400_000;
const ROWS = 60_000;

/** An area and ROWS incidents within ~0.3 mi of it over the last 80 days, written beside the app. */
function denseArchive(file: string): void {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  try {
    const lat = 41.88;
    const lon = -87.63;
    db.prepare(
      `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at, backfilled_at)
       VALUES ('Dense', 'circle', ?, ?, 1, ?, ?, ?, ?, 0, 1)`,
    ).run(lat, lon, lat - 1, lon - 1, lat + 1, lon + 1);
    const insert = db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
         local_day, local_hour, local_weekday, first_seen, last_seen, source)
       VALUES (?, 'Theft', '100 W MADISON ST', ?, ?, '', 'x', ?, 'UTC', ?, ?, ?, ?, ?, ?, 'import')`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let k = 0; k < ROWS; k++) {
        const at = now - 2 * DAY - Math.floor((k * 80 * DAY) / ROWS);
        const d = new Date(at);
        const local = d.toISOString().slice(0, 16);
        insert.run(
          1 + k,
          lat + ((k % 97) - 48) / 20_000,
          lon + ((k % 89) - 44) / 20_000,
          local,
          at,
          local.slice(0, 10),
          d.getUTCHours(),
          d.getUTCDay(),
          now,
          now,
        );
      }
    })();
  } finally {
    db.close();
  }
}

test('Cancel stops a rule test while it runs, says so, and the Test button is back', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(120_000);
  await openView(page, 'Alerts');
  denseArchive(path.join(dataDir, 'blotter.sqlite'));
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New alert rule' });
  await form.getByLabel('Name').fill('Repeats anywhere');
  await form.getByLabel('Alert when').selectOption('nearRepeat');
  await form.getByRole('button', { name: 'Test against the last 90 days' }).click();
  await expect(form.getByTestId('rule-testing')).toHaveText('Testing against the last 90 days…');
  await expect(form.getByRole('button', { name: 'Save rule' })).toBeDisabled();
  const asked = Date.now();
  await form.getByRole('button', { name: 'Cancel test' }).click();
  await expect(form.getByTestId('rule-error')).toHaveText('Test cancelled.', { timeout: 20_000 });
  // At once, not after the whole test (60,000 reads of ~5,000 neighbours each; a sparser
  // archive in ruleTestCancel.test.ts runs past its 30 s uncancelled).
  expect(Date.now() - asked).toBeLessThan(10_000);
  await expect(form.getByRole('button', { name: 'Test against the last 90 days' })).toBeEnabled();
  await expect(form.getByRole('button', { name: 'Cancel test' })).toHaveCount(0);
  await expect(form.getByTestId('rule-test-result')).toHaveCount(0);
});
