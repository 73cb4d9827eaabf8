/**
 * Export to GIS formats from the Export view: GeoPackage, Shapefile (zip) and KML of exactly the
 * filtered incidents, downloaded from the page and opened with GDAL (ogrinfo, what QGIS uses);
 * filtered by a beat imported in the Layers panel, the files hold that beat's incidents and the
 * GeoPackage the beat itself, its hole kept and its rings oriented.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { seedDatabase } from '../bench/seed';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { ARTIFACTS_DIR } from './support/paths';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedDatabase(path.join(dataDir, 'blotter.sqlite'), { count: 1500, seed: 13, days: 60 });
    await use(dataDir);
  },
});

async function exportAndDownload(page: Page, format: RegExp, saveAs: string): Promise<string> {
  await page.getByRole('radio', { name: format }).check();
  await page.getByRole('button', { name: /^Export/ }).click();
  await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 45_000,
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const target = path.join(ARTIFACTS_DIR, saveAs);
  await download.saveAs(target);
  return target;
}

const featureCount = (source: string, layer: string): number =>
  Number(/Feature Count: (\d+)/.exec(execFileSync('ogrinfo', ['-so', source, layer]).toString())?.[1]);

test('the filtered set as GeoPackage, Shapefile and KML, each opened by GDAL with the count shown', async ({
  page,
}) => {
  await openView(page, 'Export');
  const label = page.getByTestId('export-count');
  await expect(label).toHaveText(/^\d[\d,]*$/);
  const shown = Number((await label.textContent())?.replace(/,/g, ''));
  expect(shown).toBeGreaterThan(0);

  const gpkg = await exportAndDownload(page, /^GeoPackage/, 'export.gpkg');
  expect(featureCount(gpkg, 'incidents')).toBe(shown);
  const zip = await exportAndDownload(page, /^Shapefile/, 'export-shp.zip');
  const info = execFileSync('ogrinfo', ['-so', '-al', `/vsizip/${zip}`]).toString();
  expect(Number(/Feature Count: (\d+)/.exec(info)?.[1])).toBe(shown);
  const kml = await exportAndDownload(page, /^KML/, 'export.kml');
  expect(featureCount(kml, 'Incidents')).toBe(shown);
});

type P = [number, number]; // [lat, lon]

/** Even–odd inside a ring (the test's own, not src-shared/geo). */
function evenOdd(lat: number, lon: number, ring: P[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [yi, xi] = ring[i]!;
    const [yj, xj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Twice the signed area, longitude as x: positive when counter-clockwise. */
const shoelace = (ring: number[][]): number =>
  ring.reduce((a, [x1, y1], k) => {
    const [x2, y2] = ring[(k + 1) % ring.length]!;
    return a + x1! * y2! - x2! * y1!;
  }, 0);

test('filtered by a beat with a hole: GeoPackage and Shapefile hold the beat’s incidents, the GeoPackage the beat itself', async ({
  page,
  dataDir,
}) => {
  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  const rows = db.prepare('SELECT lat, lon FROM incidents WHERE removed_at IS NULL').all() as {
    lat: number;
    lon: number;
  }[];
  db.close();
  // One beat over the middle of the first city's incidents, drawn clockwise, with a hole.
  const first = rows[0]!;
  const city = rows.filter((r) => Math.abs(r.lat - first.lat) < 0.15 && Math.abs(r.lon - first.lon) < 0.15);
  const q = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;
  const [la0, la1] = [
    q(
      city.map((r) => r.lat),
      0.2,
    ),
    q(
      city.map((r) => r.lat),
      0.8,
    ),
  ];
  const [lo0, lo1] = [
    q(
      city.map((r) => r.lon),
      0.2,
    ),
    q(
      city.map((r) => r.lon),
      0.8,
    ),
  ];
  const [dLat, dLon] = [la1 - la0, lo1 - lo0];
  const outer: P[] = [
    [la0, lo0],
    [la1, lo0],
    [la1, lo1],
    [la0, lo1],
  ];
  const hole: P[] = [
    [la0 + dLat * 0.4, lo0 + dLon * 0.4],
    [la0 + dLat * 0.4, lo0 + dLon * 0.6],
    [la0 + dLat * 0.6, lo0 + dLon * 0.6],
    [la0 + dLat * 0.6, lo0 + dLon * 0.4],
  ];
  const expected = rows.filter((r) => evenOdd(r.lat, r.lon, outer) && !evenOdd(r.lat, r.lon, hole)).length;
  expect(expected).toBeGreaterThan(10);
  const beats = JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { BEAT: 'Beat 7' },
        geometry: {
          type: 'Polygon',
          coordinates: [outer, hole].map((r) => [...r, r[0]!].map(([lat, lon]) => [lon, lat])),
        },
      },
    ],
  });

  await openView(page, 'Map');
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready');
  await page.getByRole('button', { name: /^Layers/ }).click();
  await page.getByTestId('boundary-file').setInputFiles({
    name: 'beats.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(beats),
  });
  const preview = page.getByTestId('boundary-preview');
  await expect(preview.getByLabel('Names from')).toHaveValue('BEAT');
  await preview.getByLabel('Layer name').fill('Beats');
  await preview.getByRole('button', { name: 'Keep as reference layer' }).click();
  await expect(page.getByTestId('boundary-outcome')).toHaveText('Layer "Beats" kept: 1 feature.');
  await page.getByRole('button', { name: 'All history' }).click();
  const panel = page.getByTestId('layers-panel');
  await panel.getByLabel('Layer', { exact: true }).selectOption({ label: 'Beats' });
  await panel.getByLabel('Feature', { exact: true }).selectOption({ label: 'Beat 7' });
  await panel.getByLabel('Distance').fill('0');
  await panel.getByRole('button', { name: 'Filter by this feature' }).click();
  await expect(page.getByTestId('feature-chip')).toContainText('Inside Beat 7 (Beats)');

  await openView(page, 'Export');
  await expect(page.getByTestId('export-count')).toHaveText(expected.toLocaleString('en-US'));
  const gpkg = await exportAndDownload(page, /^GeoPackage/, 'beat.gpkg');
  const zip = await exportAndDownload(page, /^Shapefile/, 'beat-shp.zip');
  for (const [source, layer] of [
    [gpkg, 'incidents'],
    [`/vsizip/${zip}`, ''],
  ] as const) {
    const info = execFileSync('ogrinfo', ['-ro', '-al', source, ...(layer ? [layer] : [])], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    expect(info.split('\n').filter((l) => /warning|error/i.test(l))).toEqual([]);
    expect(Number(/Feature Count: (\d+)/.exec(info)?.[1])).toBe(expected);
  }
  // The beat is the GeoPackage's last area: its outer ring counter-clockwise, its hole clockwise.
  const areas = JSON.parse(
    execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', gpkg, 'areas'], { encoding: 'utf8' }),
  ) as { features: { properties: { name: string }; geometry: { coordinates: number[][][] } }[] };
  const beat = areas.features.at(-1)!;
  expect(beat.properties.name).toBe('Beat 7 (Beats)');
  expect(beat.geometry.coordinates).toHaveLength(2);
  expect(shoelace(beat.geometry.coordinates[0]!)).toBeGreaterThan(0);
  expect(shoelace(beat.geometry.coordinates[1]!)).toBeLessThan(0);
});
