/**
 * The PDF report with the analyses (issue 15, item 9): the Export view's report options add the
 * hot spot map (Gi*), and the CompStat table is always the bulletin's; the printed PDF's text (pdftotext) holds the table's
 * header and the very figures `blotter analyze compstat` writes for the same filters (read from the
 * report's manifest, run as a process on the same data folder), the hot spot map's legend and
 * parameters line, and its page's pixels (pdftoppm) the Analysis view's hot spot colours.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { seedDatabase } from '../bench/seed';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    // Over a year, so last year's periods hold incidents (percent change needs a base of 10).
    seedDatabase(path.join(dataDir, 'blotter.sqlite'), { count: 6000, seed: 7, days: 400 });
    await use(dataDir);
  },
});

async function printReport(page: Page): Promise<string> {
  await page.getByRole('radio', { name: /^PDF report/ }).check();
  const fields = page.getByTestId('report-options');
  await fields.getByLabel('Title').fill('Weekly analysis bulletin');
  await fields.getByRole('checkbox', { name: 'Hot spot map (Gi*)' }).check();
  // The CompStat table is the bulletin's own: no option to ask for it.
  await expect(fields.getByRole('checkbox', { name: 'CompStat table' })).toHaveCount(0);
  await page.getByRole('button', { name: /^Create the PDF report/ }).click();
  await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 60_000,
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const target = path.join(ARTIFACTS_DIR, 'report-analyses.pdf');
  await download.saveAs(target);
  return target;
}

type Filters = { area?: { areaId?: number }; preset?: string; from?: string; to?: string; types?: string[] };

/** The CLI's flags for the report's filters (those this journey sets; anything else fails). */
function cliFlags(f: Filters): string[] {
  const known = ['area', 'preset', 'from', 'to', 'types'];
  const other = Object.keys(f).filter((k) => !known.includes(k));
  if (other.length) throw new Error(`filters this test does not map: ${other.join(', ')}`);
  return [
    ...(f.area?.areaId !== undefined ? ['--area-id', String(f.area.areaId)] : []),
    ...(f.preset ? ['--preset', f.preset] : []),
    ...(f.from ? ['--from', f.from] : []),
    ...(f.to ? ['--to', f.to] : []),
    ...(f.types?.length ? ['--types', f.types.join(',')] : []),
  ];
}

type Comparison = { base: number; change: number; percent: number | null } | null;
type Cell = { current: number; prior: Comparison; yearAgo: Comparison };
type Side = { compared: boolean };
type CompStat = {
  areas: {
    area: string;
    rows: { label: string; cells: Cell[] }[];
    periods: { label: string; prior: Side | null; yearAgo: Side }[];
    notes: string[];
  }[];
};

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const comparisonText = (c: Comparison) =>
  c ? `${c.base} ${signed(c.change)}${c.percent === null ? '' : ` (${signed(c.percent)} %)`}` : '';
/** A period's count and the comparisons the archive can make (those without are no column). */
const cellText = (c: Cell, p: CompStat['areas'][number]['periods'][number]) =>
  [
    String(c.current),
    ...(p.prior?.compared ? [comparisonText(c.prior)] : []),
    ...(p.yearAgo.compared ? [comparisonText(c.yearAgo)] : []),
  ].join(' ');

/** Pixels of a binary PPM (P6). */
function readPpm(file: string) {
  const data = readFileSync(file);
  const m = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 40).toString('latin1'));
  if (!m) throw new Error(`not a PPM: ${file}`);
  return { width: Number(m[1]), height: Number(m[2]), rgb: data.subarray(m[0].length) };
}

/**
 * A bin colour drawn at 80 % over the area's tint on the map's background, as the report draws a
 * cell; the legend's swatches (the pure colour) are far from it, so they are not counted.
 */
const onMap = (hex: string): [number, number, number] => {
  const c = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const bg = [234, 239, 246];
  return [0, 1, 2].map((k) => 0.8 * (c[k] as number) + 0.2 * (bg[k] as number)) as [number, number, number];
};

test('the PDF report prints the hot spot map and the CompStat table with the CLI’s figures', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(180_000);
  await openView(page, 'Export');
  await page.getByLabel('Area', { exact: true }).selectOption({ label: 'Chicago' });
  const bar = page.getByRole('region', { name: 'Filters' });
  await bar.getByRole('group', { name: 'Date range' }).getByRole('button', { name: 'All history' }).click();
  const pdf = await printReport(page);

  // The manifest beside the PDF: its filters and the analyses' parameters.
  const exports = path.join(dataDir, 'exports');
  const manifestName = readdirSync(exports).find((f) => f.endsWith('.manifest.json')) as string;
  const manifest = JSON.parse(readFileSync(path.join(exports, manifestName), 'utf8')) as {
    filters: Filters;
    file: { analyses?: { hotSpots?: { parameters: Record<string, unknown> }; compStat?: unknown } };
  };
  expect(manifest.filters.area?.areaId).toBeGreaterThan(0);
  expect(manifest.file.analyses?.hotSpots?.parameters).toMatchObject({
    grid: 'square',
    fdr: 'Benjamini-Hochberg',
  });
  expect(manifest.file.analyses?.compStat).toBeTruthy();

  // The same filters through `blotter analyze compstat`, on the same data folder.
  const out = path.join(dataDir, 'compstat.json');
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src-main/cli/main.ts',
      'analyze',
      'compstat',
      '--data-dir',
      dataDir,
      ...cliFlags(manifest.filters),
      '--format',
      'json',
      '--out',
      out,
    ],
    { cwd: ROOT, env: { ...process.env, BLOTTER_LOG_LEVEL: 'warn' }, timeout: 120_000 },
  );
  const cli = JSON.parse(readFileSync(out, 'utf8')) as CompStat;

  const raw = execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' });
  const words = raw.replace(/\s+/g, ' ');
  for (const text of [
    'Hot spots (Getis-Ord Gi*)',
    'Hot spot, 99 % confidence',
    'Cold spot, 99 % confidence',
    'Square grid of',
    'distance band',
    'Benjamini–Hochberg',
    'CompStat',
    'Offense Week to date Last 7 days Last 28 days Year to date',
  ])
    expect(words).toContain(text);
  expect(cli.areas.length).toBeGreaterThan(0);
  let withPercent = 0;
  for (const area of cli.areas) {
    expect(words).toContain(`${area.area} — as of`);
    for (const row of area.rows) {
      expect(words).toContain(
        `${row.label} ${row.cells.map((c, k) => cellText(c, area.periods[k]!)).join(' ')}`,
      );
      withPercent += row.cells.filter((c) => c.prior?.percent != null || c.yearAgo?.percent != null).length;
    }
    // Each note the archive's coverage calls for, up to its dates (the report writes them its own way).
    for (const note of area.notes) expect(words).toContain(note.split(' (')[0]!.split(': ')[0]!);
  }
  expect(withPercent).toBeGreaterThan(0); // some bases are ≥ 10, so percent change is printed

  // The hot spot map's page: cells in the Analysis view's hot colours, drawn on the map.
  const pages = raw.split('\f');
  const mapPage = pages.findIndex((t) => t.includes('Hot spots (Getis-Ord Gi*)')) + 1;
  expect(mapPage).toBeGreaterThan(0);
  const prefix = path.join(ARTIFACTS_DIR, 'report-hotspots');
  execFileSync('pdftoppm', [
    '-r',
    '150',
    '-f',
    String(mapPage),
    '-l',
    String(mapPage),
    '-singlefile',
    pdf,
    prefix,
  ]);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '150',
    '-f',
    String(mapPage),
    '-l',
    String(mapPage),
    '-singlefile',
    pdf,
    prefix,
  ]);
  const { width, height, rgb } = readPpm(`${prefix}.ppm`);
  const hot = [onMap('#b2182b'), onMap('#ef8a62')];
  let hotPixels = 0;
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = [rgb[3 * i] as number, rgb[3 * i + 1] as number, rgb[3 * i + 2] as number];
    if (hot.some(([hr, hg, hb]) => Math.abs(r - hr) + Math.abs(g - hg) + Math.abs(b - hb) < 24)) hotPixels++;
  }
  // Six 99 % cells of ~250 m on this map are about 40 such pixels at 150 dpi; none without them.
  expect(hotPixels).toBeGreaterThanOrEqual(25);
});
