/**
 * Settings › Office against a real PostgreSQL + PostGIS the test starts (the office tests' own
 * helper, like the simulator: the other side of the wire): join with the address from the form's
 * fields and the password in its own field, see the status in words, pull, leave — asked first in a
 * modal dialog (focus on Cancel, Escape leaves nothing) that says the replica stays, and it does. The
 * password is in no page text, input value or data file afterwards. Over TLS, a private CA's
 * certificate is a file the page uploads (the host chooses it); an address naming a path is refused.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestPostgres, type TestPostgres } from '../src-main/engine/office/pgTesting';
import { migrateOffice } from '../src-main/engine/office/migrate';
import { putOfficeIncidents } from '../src-main/engine/office/officeArchive';
import { openOfficePool } from '../src-main/engine/office/officeDb';
import { officeRow } from '../src-main/engine/office/officeRows.testing';
import { parseOfficeUrl } from '../src-main/engine/office/officeUrl';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openView } from './support/app';
import { enterTwice, expectModalConfirmation } from './support/confirm';

let server: TestPostgres;
test.beforeAll(async () => {
  server = await startTestPostgres();
});
test.afterAll(() => server?.stop());

/** Settings › Office of a standalone folder, its join form filled in for `db` on 127.0.0.1. */
async function joinForm(page: Page, db: TestPostgres): Promise<Locator> {
  await openView(page, 'Settings');
  const office = page.getByRole('region', { name: 'Office', exact: true });
  await expect(office.getByTestId('office-status')).toContainText('standalone archive');
  await office.getByRole('textbox', { name: 'Server', exact: true }).fill('127.0.0.1');
  await office.getByRole('textbox', { name: 'Port', exact: true }).fill(String(db.port));
  await office.getByRole('textbox', { name: 'Database', exact: true }).fill(db.database);
  await office.getByRole('textbox', { name: 'Role', exact: true }).fill(db.user);
  await office.getByLabel('Password', { exact: true }).fill(db.password);
  return office;
}

test('joins the office database from Settings, shows its status, pulls and leaves keeping the replica', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(90_000);
  const office = await joinForm(page, server);
  await office.getByRole('radio', { name: /No TLS/ }).check();
  await office.getByRole('button', { name: 'Join the office' }).click();

  await expect(office.getByText(/^Joined: pulled 0 incidents/)).toBeVisible({ timeout: 30_000 });
  const status = office.getByTestId('office-status');
  await expect(status).toContainText(
    `Joined to postgres://${server.user}@127.0.0.1:${server.port}/${server.database}?sslmode=disable.`,
  );
  await expect(status).toContainText('This desktop leads no area’s sync now');
  await expect(status).toContainText('The replica is up to date.');
  await expect(office.getByLabel('Password', { exact: true })).toHaveCount(0);

  // An area another desktop drew arrives by the pull.
  const db = await server.admin();
  await db.query(
    `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
     VALUES ('Loop', 'circle', 41.85, -87.65, 1, 41.83, -87.67, 41.87, -87.63, 1)`,
  );
  await db.end();
  await office.getByRole('button', { name: 'Pull now' }).click();
  await expect(office.getByText('Pulled 0 incidents, 1 areas and 0 deletions.')).toBeVisible();

  // The password went to the keychain: not in the page, nor in any file of the data folder.
  expect(await page.content()).not.toContain(server.password);
  for (const name of await readdir(dataDir, { recursive: true })) {
    const file = path.join(dataDir, name);
    const text = await readFile(file).catch(() => Buffer.alloc(0));
    expect(text.includes(server.password), file).toBe(false);
  }

  server.stop();
  await office.getByRole('button', { name: 'Pull now' }).click();
  await expect(office.getByRole('alert')).toContainText('cannot be reached');
  await page.reload();
  await openView(page, 'Settings');
  await expect(
    page.getByRole('region', { name: 'Office', exact: true }).getByTestId('office-status'),
  ).toContainText('PostgreSQL unreachable: syncs paused, working on the replica.');

  // Leaving asks first, saying what stays; Escape (or Enter twice) leaves nothing.
  const again = page.getByRole('region', { name: 'Office', exact: true });
  const opener = again.getByRole('button', { name: 'Leave the office…' });
  const dialog = page.getByRole('dialog', { name: 'Leave the office?' });
  await opener.click();
  await expect(dialog).toContainText(
    'This folder keeps its 0 incidents and 1 area as a standalone archive, but no longer receives the office’s changes.',
  );
  await expect(dialog).toContainText('The office’s password is removed from this computer’s keychain');
  await expectModalConfirmation(page, dialog, opener);
  await enterTwice(page, dialog, opener);
  await page.reload();
  await openView(page, 'Settings');
  await expect(again.getByTestId('office-status')).toContainText('PostgreSQL unreachable');

  await opener.click();
  await dialog.getByRole('button', { name: 'Leave the office', exact: true }).click();
  await expect(
    again.getByText(/Left the office: this folder keeps its 0 incidents as a standalone archive/),
  ).toBeVisible();
  await expect(again.getByTestId('office-status')).toContainText('standalone archive');
  // Its button went with the joined state: focus in the join form, not lost to the page.
  await expect(again.getByRole('textbox', { name: 'Server', exact: true })).toBeFocused();
});

test('joins an office over TLS with a private CA’s certificate uploaded from the form; the address names no page path', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(90_000);
  const tls = await startTestPostgres('blotter_office', { tls: true });
  try {
    const office = await joinForm(page, tls);
    await expect(office.getByRole('radio', { name: /TLS, the server’s certificate verified/ })).toBeChecked();
    // No text box names a file any more: the CA certificate is a file the page uploads.
    await office.getByRole('checkbox', { name: /A private CA signed its certificate/ }).check();
    await office.getByRole('button', { name: 'Join the office' }).click();
    await expect(office.getByRole('alert')).toContainText('Choose the CA certificate file');
    await office.getByLabel('CA certificate file', { exact: true }).setInputFiles(tls.caFile!);
    await office.getByRole('button', { name: 'Join the office' }).click();

    await expect(office.getByText(/^Joined: pulled 0 incidents/)).toBeVisible({ timeout: 30_000 });
    const copy = (await readdir(dataDir)).find((n) => /^office-ca-[0-9a-f]{16}\.pem$/.test(n));
    expect(copy).toBeDefined();
    expect(await readFile(path.join(dataDir, copy!), 'utf8')).toBe(await readFile(tls.caFile!, 'utf8'));
    await expect(office.getByTestId('office-status')).toContainText(
      `Joined to postgres://${tls.user}@127.0.0.1:${tls.port}/${tls.database}?sslmode=verify-full&sslrootcert=${encodeURIComponent(path.join(dataDir, copy!))}.`,
    );
    await expect(office.getByTestId('office-status')).toContainText('The replica is up to date.');
    // The upload did its work and is gone.
    expect(
      (await readdir(path.join(dataDir, 'imports')).catch(() => [])).filter((n) => n.endsWith('.upload')),
    ).toEqual([]);
    await office.getByRole('button', { name: 'Leave the office…' }).click();
    await page
      .getByRole('dialog', { name: 'Leave the office?' })
      .getByRole('button', { name: 'Leave the office', exact: true })
      .click();
    await expect(office.getByTestId('office-status')).toContainText('standalone archive');

    // A page that names a file itself (a hand-made call) is refused, and the engine reads nothing.
    const refused = await page.evaluate(async (url) => {
      const answer = await fetch('/api/call/joinOffice', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `${url}?sslrootcert=/dev/zero`, password: null }),
        credentials: 'same-origin',
      });
      return answer.json();
    }, `postgres://${tls.user}@127.0.0.1:${tls.port}/${tls.database}`);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/cannot name a file/) },
    });
  } finally {
    tls.stop();
  }
});

test('a join’s catch-up of a large office archive shows its progress and Cancel; cancelled, nothing is kept and Pull now brings it all', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const ROWS = 150_000;
  const big = await startTestPostgres('blotter_office');
  try {
    const pool = openOfficePool(parseOfficeUrl(big.url), big.password);
    try {
      await migrateOffice(pool);
      await putOfficeIncidents(
        pool,
        Array.from({ length: ROWS }, (_, i) => officeRow(i + 1)),
      );
    } finally {
      await pool.end();
    }
    const office = await joinForm(page, big);
    await office.getByRole('radio', { name: /No TLS/ }).check();
    await office.getByRole('button', { name: 'Join the office' }).click();

    const running = office.getByTestId('office-pull');
    await expect(running).toHaveAttribute('data-state', 'running', { timeout: 60_000 });
    await expect(running).toContainText(/Pulling from the office: [\d,]+ of 150,000 rows\./);
    await expect(running.getByRole('progressbar', { name: 'Office pull' })).toBeVisible();
    await running.getByRole('button', { name: 'Cancel pull' }).click();
    await expect(office.getByTestId('office-pull')).toContainText(
      /Pull cancelled after [\d,]+ of 150,000 rows: nothing half-written was kept/,
      { timeout: 30_000 },
    );
    // Joined all the same, its replica empty until the next pull.
    const status = office.getByTestId('office-status');
    await expect(status).toContainText('Joined to');
    await expect(status).toContainText('The replica is 150000 changes behind the office.');
    await expect(status).toContainText('Not pulled yet.');

    await office.getByRole('button', { name: 'Pull now' }).click();
    await expect(office.getByText('Pulled 150000 incidents, 0 areas and 0 deletions.')).toBeVisible({
      timeout: 90_000,
    });
    await expect(office.getByRole('button', { name: 'Cancel pull' })).toHaveCount(0);
  } finally {
    big.stop();
  }
});
