/**
 * The weekly bulletin (issue 27, item 2), printed by the host's headless Chromium as every PDF
 * report is: the demo's last 7 days for one area. pdfinfo: at most two pages, on Letter (the
 * host's locale is C) and on A4 when the paper option says so. pdftotext: the headline the
 * manifest records, each type of the map's legend with its count, and local times with their zone
 * ("Prepared" among them). pdftoppm at 100 dpi: the map holds the basemap's streets, counted in the
 * pixels as the basemap journey counts them. Every non-loopback request is blocked.
 *
 * Artifacts: e2e/artifacts/bulletin.pdf, bulletin-1.png (page 1 at 100 dpi), bulletin-a4.pdf.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openView } from './support/app';
import { blockTheInternet, startDemoWithStreets } from './support/basemapPixels';
import { ARTIFACTS_DIR } from './support/paths';
import { greyPixels } from './support/ppmPixels';

const AREA = 'Downtown San Francisco (demo)';

type Manifest = {
  counts: { total: number; byType: Record<string, number> };
  file: { analyses: { bulletin: { headline: string[]; zone: string; paper: string; place: string } } };
};

async function printBulletin(
  page: Page,
  dataDir: string,
  name: string,
): Promise<{ pdf: string; manifest: Manifest }> {
  const before = new Set(exportsOf(dataDir));
  await page.getByRole('button', { name: /^Create the PDF report/ }).click();
  await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 90_000,
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const pdf = path.join(ARTIFACTS_DIR, name);
  await download.saveAs(pdf);
  const manifestName = exportsOf(dataDir).find(
    (f) => f.endsWith('.manifest.json') && !before.has(f),
  ) as string;
  const manifest = JSON.parse(readFileSync(path.join(exportsDir(dataDir), manifestName), 'utf8')) as Manifest;
  return { pdf, manifest };
}

/** The demo's own data folder (src-main/demo/README.md: `<data folder>-demo`) holds its exports. */
const exportsDir = (dataDir: string) => path.join(`${dataDir}-demo`, 'exports');

function exportsOf(dataDir: string): string[] {
  try {
    return readdirSync(exportsDir(dataDir));
  } catch {
    return [];
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

test('the demo’s last week for one area prints as a bulletin of at most two pages, with its headline, legend, zone and streets', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(300_000);
  const blocked = await blockTheInternet(page);
  await startDemoWithStreets(page);
  await openView(page, 'Export');
  await page.getByLabel('Area', { exact: true }).selectOption({ label: AREA });
  const bar = page.getByRole('region', { name: 'Filters' });
  await bar.getByRole('group', { name: 'Date range' }).getByRole('button', { name: '7 days' }).click();
  await page.getByRole('radio', { name: /^PDF report/ }).check();
  await page.getByTestId('report-options').getByLabel('Title').fill('Weekly bulletin');
  const { pdf, manifest } = await printBulletin(page, dataDir, 'bulletin.pdf');

  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  expect(info).toMatch(/Page size:\s+612 x 792 pts/); // Letter: the host's locale names no region
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
  expect(pages).toBeGreaterThanOrEqual(1);
  expect(pages).toBeLessThanOrEqual(2);

  const text = oneLine(execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }));
  const b = manifest.file.analyses.bulletin;
  expect(b.place).toBe(AREA);
  expect(manifest.counts.total).toBeGreaterThanOrEqual(30); // a typical week: compared, not "too few"
  expect(b.headline.length).toBeGreaterThanOrEqual(2);
  expect(b.headline.length).toBeLessThanOrEqual(5);
  expect(b.headline.join(' ')).toMatch(/rose most|fell most|No type changed|does not hold the 7 days before/);
  for (const sentence of b.headline) expect(text).toContain(oneLine(sentence));
  // The legend: every type on the map with its count.
  const types = Object.entries(manifest.counts.byType).filter(([, n]) => n > 0);
  expect(types.length).toBeGreaterThan(1);
  for (const [type, n] of types) expect(text).toContain(`${type} ${n}`);
  // Local times with their zone: San Francisco's, "Prepared" too (it was UTC).
  expect(b.zone).toBe('America/Los_Angeles');
  const zoned =
    /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M P[SD]T\b/;
  expect(text).toMatch(new RegExp(`Prepared ${zoned.source}`));
  expect(text).toContain('Times are local to America/Los_Angeles');
  expect(text).not.toMatch(/\bUTC\b/);
  for (const heading of [
    'CompStat',
    '12-week trend (weeks start Monday)',
    'Top repeat locations (block address)',
  ])
    expect(text).toContain(heading);
  expect(text).toContain('Where these figures come from');
  expect(text).toContain(`Area: ${AREA}`);

  // Page 1 at 100 dpi: the map's land is the basemap's grey (background #cccccc, earth #e2dfda),
  // which a streetless map (#f7f8fa) never has.
  const prefix = path.join(ARTIFACTS_DIR, 'bulletin-1');
  execFileSync('pdftoppm', ['-r', '100', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
  execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
  expect(greyPixels(readFileSync(`${prefix}.ppm`))).toBeGreaterThan(20_000);

  await test.step('A4 when the paper option says so', async () => {
    await page.getByTestId('report-options').getByLabel('Paper').selectOption('a4');
    const a4 = await printBulletin(page, dataDir, 'bulletin-a4.pdf');
    const a4Info = execFileSync('pdfinfo', [a4.pdf], { encoding: 'utf8' });
    expect(a4Info).toMatch(/Page size:\s+59\d(\.\d+)? x 84\d(\.\d+)? pts \(A4\)/);
    expect(Number(/Pages:\s+(\d+)/.exec(a4Info)?.[1])).toBeLessThanOrEqual(2);
    expect(a4.manifest.file.analyses.bulletin.paper).toBe('a4');
  });
  expect(blocked).toEqual([]);
});
