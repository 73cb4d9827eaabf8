/**
 * Every file Blotter writes in its data folders is the user's alone (POSIX): the web host, started
 * on a folder it creates itself, syncs the demo city (database, WAL, logs, demo marker, basemap),
 * exports a CSV and a PDF report, and imports that CSV back (upload, staging); then every file
 * under both folders is 0600 and every folder 0700. The host runs with the environment's usual
 * umask (022): the modes come from Blotter, not from the test.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { waitForAppReady } from './support/appReady';

// A data folder the host creates (one level below the fixture's temporary folder).
const test = base.extend({
  dataDir: async ({ dataDir }, use) => use(path.join(dataDir, 'created-by-blotter')),
});

/** Every entry under `root` whose mode is not private: `path mode` lines. */
function notPrivate(root: string): string[] {
  const wrong: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      const info = lstatSync(file);
      const mode = info.mode & 0o777;
      if (info.isDirectory()) {
        if (mode !== 0o700) wrong.push(`${path.relative(root, file)}/ ${mode.toString(8)}`);
        walk(file);
      } else if (mode !== 0o600) wrong.push(`${path.relative(root, file)} ${mode.toString(8)}`);
    }
  };
  walk(root);
  return wrong;
}

/** All files under `root`, relative. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (f) => !lstatSync(path.join(root, f)).isDirectory(),
  );
}

/** One contract call from the page, as its own bridge makes it. */
function call(
  page: Page,
  name: string,
  input: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: unknown }> {
  return page.evaluate(
    async ([n, i]) => {
      const res = await fetch(`/api/call/${n}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(i),
      });
      return res.json();
    },
    [name, input] as const,
  );
}

test.afterEach(async ({ dataDir }) => {
  await rm(`${dataDir}-demo`, { recursive: true, force: true });
});

test('sync, export, PDF and import leave only 0600 files and 0700 folders', async ({ page, dataDir }) => {
  test.setTimeout(240_000);
  const demoDir = `${dataDir}-demo`;
  expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);

  await test.step('the demo syncs a city into its own folder', async () => {
    await page.getByTestId('welcome').getByRole('button', { name: 'Explore with demo data' }).click();
    const banner = page.getByTestId('demo-banner');
    await expect(banner).toBeVisible({ timeout: 60_000 });
    await waitForAppReady(page);
    await expect(banner).toHaveAttribute('data-demo-sync', 'done', { timeout: 120_000 });
  });

  await test.step('a CSV and a PDF report are exported', async () => {
    for (const format of ['csv', 'pdf']) {
      const started = await call(page, 'startExport', { format, filters: {} });
      expect(started.ok, JSON.stringify(started)).toBe(true);
    }
    const exportsDir = path.join(demoDir, 'exports');
    await expect
      .poll(() => filesUnder(exportsDir).filter((f) => /\.(csv|pdf)$/.test(f)).length, { timeout: 90_000 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => filesUnder(exportsDir).filter((f) => f.endsWith('.part')), { timeout: 30_000 })
      .toEqual([]);
  });

  await test.step('the CSV is uploaded and imported back', async () => {
    const exportsDir = path.join(demoDir, 'exports');
    const csv = filesUnder(exportsDir).find((f) => f.endsWith('.csv')) as string;
    const body = readFileSync(path.join(exportsDir, csv), 'utf8');
    const uploaded = await page.evaluate(async (text) => {
      const res = await fetch('/api/upload', {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream', 'X-Blotter-File-Name': 'again.csv' },
        body: text,
      });
      return res.json();
    }, body);
    expect(uploaded.ok, JSON.stringify(uploaded)).toBe(true);
    const preview = (await call(page, 'previewImport', {
      source: { uploadId: uploaded.value.uploadId },
    })) as {
      ok: boolean;
      value: { importId: string };
    };
    expect(preview.ok, JSON.stringify(preview)).toBe(true);
    const result = await call(page, 'runImport', { importId: preview.value.importId });
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  await test.step('every file is 0600 and every folder 0700, in both folders', async () => {
    const files = [...filesUnder(dataDir), ...filesUnder(demoDir)];
    for (const expected of [
      /blotter\.sqlite$/,
      /logs\/blotter\.log$/,
      /\.pdf$/,
      /\.csv$/,
      /blotter-demo\.json$/,
    ])
      expect(
        files.some((f) => expected.test(f)),
        String(expected),
      ).toBe(true);
    expect(lstatSync(demoDir).mode & 0o777).toBe(0o700);
    expect(notPrivate(dataDir)).toEqual([]);
    expect(notPrivate(demoDir)).toEqual([]);
  });

  await test.step('the demo is removed (its keychain entry too)', async () => {
    expect((await call(page, 'removeDemo', {})).ok).toBe(true);
  });
});
