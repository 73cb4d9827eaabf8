/**
 * Export: a CSV of exactly the filtered incidents (its rows = the count shown, its cells = the
 * archive's, an address beginning with = neutralised), with its manifest; the PDF report printed
 * by the host, rendered to PNG pages with pdftoppm into e2e/artifacts/; and an import with a bad row.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { seedDatabase } from '../bench/seed';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const FORMULA_ADDRESS = '=HYPERLINK("http://evil.example","click")';

/** Synthetic incidents from bench/seed.ts, plus one whose address is a spreadsheet formula. */
function seedExportData(dataDir: string): number {
  const file = path.join(dataDir, 'blotter.sqlite');
  seedDatabase(file, { count: 2500, seed: 11, days: 60 });
  const db = new Database(file);
  try {
    const last = db.prepare('SELECT max(cdid) AS cdid FROM incidents WHERE removed_at IS NULL').get() as {
      cdid: number;
    };
    const cdid = last.cdid + 500;
    db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
         time_flag, local_day, local_hour, local_weekday, description, first_seen, last_seen)
       SELECT ?, type, ?, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc, time_flag, local_day,
         local_hour, local_weekday, 'Said "stop", then left,
quickly', first_seen, last_seen FROM incidents WHERE cdid = ?`,
    ).run(cdid, FORMULA_ADDRESS, last.cdid);
    return cdid;
  } finally {
    db.close();
  }
}

const test = base.extend<{ formulaCdid: number }>({
  formulaCdid: [async ({}, use) => use(0), { option: true }],
  dataDir: async ({ dataDir }, use) => {
    seedExportData(dataDir);
    await use(dataDir);
  },
});

/** RFC 4180, as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      endField();
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else {
      field += c;
    }
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

async function shownCount(page: Page): Promise<number> {
  const label = page.getByTestId('export-count');
  await expect(label).toHaveText(/^\d[\d,]*$/);
  return Number((await label.textContent())?.replace(/,/g, ''));
}

async function exportAndDownload(page: Page, format: RegExp, saveAs: string): Promise<string> {
  await page.getByRole('radio', { name: format }).check();
  await page.getByRole('button', { name: /^(Export|Create the PDF report)/ }).click();
  const progress = page.getByTestId('export-progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 45_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const target = path.join(ARTIFACTS_DIR, saveAs);
  await download.saveAs(target);
  return target;
}

test('a CSV of exactly the filtered set, cells as stored, formulas neutralised, with its manifest', async ({
  page,
  dataDir,
}) => {
  await openView(page, 'Export');
  const shown = await shownCount(page);
  await expect(page.getByTestId('export-what')).toContainText('Dates:');
  await page.getByRole('checkbox', { name: /byte-order mark/ }).check();
  const file = await exportAndDownload(page, /^CSV/, 'export.csv');
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'export-done.png') });

  const text = readFileSync(file, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const [header, ...rows] = parseCsv(text.slice(1));
  expect(header).toEqual([
    'cdid',
    'type',
    'occurred_local',
    'timezone',
    'occurred_utc',
    'date_raw',
    'address',
    'lat',
    'lon',
    'link',
    'description',
    'first_seen',
    'last_seen',
    'removed',
    'subtype',
    'attributes',
  ]);
  expect(rows).toHaveLength(shown);

  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  try {
    // The default filter is the last 90 days; the seed spans 60, so every live incident matches.
    const stored = db
      .prepare('SELECT * FROM incidents WHERE removed_at IS NULL ORDER BY cdid')
      .all() as Record<string, string | number | null>[];
    expect(rows.map((r) => Number(r[0]))).toEqual(stored.map((s) => s.cdid));
    const neutral = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);
    rows.forEach((r, k) => {
      const s = stored[k] as Record<string, string | number | null>;
      expect(r).toEqual([
        String(s.cdid),
        neutral(String(s.type)),
        s.occurred_local,
        s.timezone,
        new Date(Number(s.occurred_utc)).toISOString(),
        neutral(String(s.date_raw)),
        neutral(String(s.address)),
        String(s.lat),
        String(s.lon),
        neutral(String(s.link)),
        s.description === null ? '' : neutral(String(s.description)),
        new Date(Number(s.first_seen)).toISOString(),
        new Date(Number(s.last_seen)).toISOString(),
        'false',
        s.subtype === null ? '' : neutral(String(s.subtype)), // an import's own category; none for the API's
        '', // attributes: kept columns of a mapped import only; these are the API's rows
      ]);
    });
  } finally {
    db.close();
  }
  const formula = rows.find((r) => r[6]?.includes('HYPERLINK'));
  expect(formula?.[6]).toBe(`'${FORMULA_ADDRESS}`);
  expect(formula?.[10]).toBe('Said "stop", then left,\nquickly');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the manifest' }).click(),
  ]);
  const manifest = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    counts: { total: number; written: number };
    filterWords: string[];
    app: { version: string };
    provenance: { notes: string[]; areas: unknown[] };
  };
  expect(manifest.counts).toMatchObject({ total: shown, written: shown });
  expect(manifest.filterWords.join(' ')).toContain('last 90 days');
  expect(manifest.provenance.areas.length).toBeGreaterThan(0);
  expect(manifest.provenance.notes.join(' ')).toMatch(/block-level/);
});

/** A PGM (P5, 8-bit) as width, height and bytes. */
function readPgm(file: string): { width: number; height: number; pixels: Buffer } {
  const data = readFileSync(file);
  const header = data.subarray(0, 64).toString('latin1');
  const m = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(header);
  if (!m) throw new Error(`not a PGM: ${file}`);
  return { width: Number(m[1]), height: Number(m[2]), pixels: data.subarray(m[0].length) };
}

test('a PDF report is a bulletin: title, agency, notes, incident list, page numbers, local dates, nothing clipped', async ({
  page,
}) => {
  await openView(page, 'Export');
  await shownCount(page);
  await page.getByRole('radio', { name: /^PDF report/ }).check();
  const fields = page.getByTestId('report-options');
  await fields.getByLabel('Title').fill('Weekly theft bulletin');
  await fields.getByLabel('Agency').fill('Springfield Police Department');
  await fields
    .getByLabel('Analyst’s notes')
    .fill('Thefts rose near the station.\nPatrols asked to watch Main St.');
  await fields.getByRole('checkbox', { name: /List the incidents/ }).check();
  const pdf = await exportAndDownload(page, /^PDF report/, 'report.pdf');
  for (const old of readdirSync(ARTIFACTS_DIR).filter((f) => /^report-\d+\.(png|pgm)$/.test(f)))
    rmSync(path.join(ARTIFACTS_DIR, old));
  execFileSync('pdftoppm', ['-png', '-r', '50', pdf, path.join(ARTIFACTS_DIR, 'report')]);
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  expect(info).toMatch(/Page size:\s+612 x 792 pts/);
  const pageCount = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
  expect(pageCount).toBeGreaterThan(3); // the report, then the incident list

  const words = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  for (const text of [
    'Weekly theft bulletin',
    'SPRINGFIELD POLICE DEPARTMENT',
    'Thefts rose near the station.',
    'Patrols asked to watch Main St.',
    'CompStat',
    '12-week trend (weeks start Monday)',
    'Top repeat locations (block address)',
    'Filters:',
    'Where these figures come from',
    'Incidents',
    'Page 1 of ' + pageCount,
    `Page ${pageCount} of ${pageCount}`,
  ])
    expect(words).toContain(text);
  expect(words).toMatch(/block-level/);
  // One date format, local: no ISO days, no "UTC" instants the old report mixed in.
  expect(words).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  expect(words).toMatch(
    /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M [A-Z]{3,4}\b/,
  );

  // Nothing reaches into the right margin (a clipped box would run to the paper's edge), and no
  // page before the incident list is left half empty.
  execFileSync('pdftoppm', ['-gray', '-r', '36', pdf, path.join(ARTIFACTS_DIR, 'report')]);
  const pgms = readdirSync(ARTIFACTS_DIR)
    .filter((f) => /^report-\d+\.pgm$/.test(f))
    .sort();
  expect(pgms).toHaveLength(pageCount);
  const listStarts = words.split('\f').findIndex((t) => /Incidents\s*\n.*newest/i.test(t));
  pgms.forEach((file, k) => {
    const { width, height, pixels } = readPgm(path.join(ARTIFACTS_DIR, file));
    const margin = Math.floor((10 / 25.4) * 36); // 10 mm of the 14 mm right margin
    let inMargin = 0;
    let lastInk = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const ink = (pixels[y * width + x] as number) < 200;
        if (!ink) continue;
        if (x >= width - margin) inMargin++;
        if (y < height * 0.93) lastInk = y; // above the footer
      }
    }
    expect(inMargin, `${file}: ink in the right margin`).toBe(0);
    if (listStarts > 0 && k < listStarts - 1)
      expect(lastInk / height, `${file}: half empty`).toBeGreaterThan(0.6);
  });
});

test('an import shows each bad row and writes only the valid ones', async ({ page, dataDir }) => {
  await openView(page, 'Export');
  const csv = path.join(dataDir, 'archive.csv');
  writeFileSync(
    csv,
    'cdid,type,address,lat,lon,link,date\n' +
      '990000001,Theft,100 Block of W Import St,41.88,-87.63,https://crime.example.test/i/1,05/10/25 01:30 PM\n' +
      '990000002,Theft,200 Block of W Import St,141.88,-87.63,,05/10/25 01:30 PM\n',
  );
  await page.getByTestId('import-file').setInputFiles(csv);
  const preview = page.getByTestId('import-preview');
  await expect(preview).toContainText('CSV with the API’s fields');
  await expect(page.getByTestId('import-errors')).toContainText('lat must be a number from -90 to 90');
  await page.getByRole('button', { name: /^Import 1 incidents/ }).click();
  await expect(page.getByTestId('import-outcome')).toContainText(
    'Imported: 1 new, 0 updated, 0 already held, 1 bad rows skipped',
  );
  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  try {
    expect(db.prepare('SELECT source, timezone FROM incidents WHERE cdid = 990000001').get()).toEqual({
      source: 'import',
      timezone: 'America/Chicago',
    });
    expect(db.prepare('SELECT count(*) AS n FROM incidents WHERE cdid = 990000002').get()).toEqual({ n: 0 });
  } finally {
    db.close();
  }
});
