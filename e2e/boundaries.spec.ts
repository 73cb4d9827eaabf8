/**
 * Boundaries on the map: a beats GeoJSON made here around the seeded archive's busiest block is
 * imported in the Layers panel, its outlines are drawn (pixels of the layer's colour) with their
 * names; filtering by one beat gives the count this test computes from the same data file by hand
 * (even–odd, holes left out), in the filter bar and the table; the count within 1,000 ft of each
 * beat is shown with the distinct total this test computes in UTM metres (proj4).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import proj4 from 'proj4';
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { seedMapData } from './support/mapSeed';

type P = [number, number]; // [lat, lon]
type Beat = { name: string; rings: P[][] };

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 3000);
    await use(dataDir);
  },
});

function evenOdd(lat: number, lon: number, ring: P[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [yi, xi] = ring[i]!;
    const [yj, xj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}
const inside = (lat: number, lon: number, b: Beat) =>
  evenOdd(lat, lon, b.rings[0]!) && !b.rings.slice(1).some((h) => evenOdd(lat, lon, h));

/**
 * A 3×3 grid of beats about 1.1 km square; the middle one has a hole. The seed's incidents change
 * with the day it runs (they end today), so the grid is placed by what the file holds: the busiest
 * block (most incidents within 0.001°) lies a fifth into the middle beat, outside its hole — quartiles
 * of the first row's city left that beat 7 incidents on some days and none on others.
 */
function makeBeats(all: { lat: number; lon: number }[]): Beat[] {
  let busiest = all[0]!;
  let most = 0;
  for (const p of all) {
    let n = 0;
    for (const r of all) if (Math.abs(p.lat - r.lat) < 0.001 && Math.abs(p.lon - r.lon) < 0.001) n++;
    if (n > most) [busiest, most] = [p, n];
  }
  const dLat = 0.01;
  const dLon = 0.013;
  const [la0, lo0] = [busiest.lat - 1.2 * dLat, busiest.lon - 1.2 * dLon];
  const beats: Beat[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      const a = la0 + i * dLat;
      const b = lo0 + j * dLon;
      const rings: P[][] = [
        [
          [a, b],
          [a, b + dLon],
          [a + dLat, b + dLon],
          [a + dLat, b],
        ],
      ];
      if (i === 1 && j === 1)
        rings.push([
          [a + dLat * 0.35, b + dLon * 0.35],
          [a + dLat * 0.35, b + dLon * 0.65],
          [a + dLat * 0.65, b + dLon * 0.65],
          [a + dLat * 0.65, b + dLon * 0.35],
        ]);
      beats.push({ name: `Beat ${i}${j}`, rings });
    }
  return beats;
}

const geojson = (beats: Beat[]) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: beats.map((b) => ({
      type: 'Feature',
      properties: { BEAT: b.name, DISTRICT: 1 },
      geometry: {
        type: 'Polygon',
        coordinates: b.rings.map((r) => [...r, r[0]!].map(([lat, lon]) => [lon, lat])),
      },
    })),
  });

test('a beats layer is drawn with its names, filters the incidents by one beat, and counts within 1,000 ft', async ({
  page,
  dataDir,
}) => {
  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true });
  const rows = db.prepare('SELECT lat, lon FROM incidents WHERE removed_at IS NULL').all() as {
    lat: number;
    lon: number;
  }[];
  db.close();
  const beats = makeBeats(rows);
  const middle = beats[4]!;
  const expected = rows.filter((r) => inside(r.lat, r.lon, middle)).length;
  expect(expected).toBeGreaterThan(10);

  await openView(page, 'Map');
  await expect(page.getByTestId('map')).toHaveAttribute('data-map-state', 'ready');
  await page.getByRole('button', { name: /^Layers/ }).click();
  await page.getByTestId('boundary-file').setInputFiles({
    name: 'beats.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(geojson(beats)),
  });
  const preview = page.getByTestId('boundary-preview');
  await expect(preview).toContainText('beats.geojson: 9 features (polygons), EPSG:4326');
  await expect(preview.getByLabel('Names from')).toHaveValue('BEAT');
  await expect(page.getByTestId('boundary-names')).toContainText('Beat 00 · Beat 01 · Beat 02');
  await preview.getByLabel('Layer name').fill('Beats');
  await preview.getByRole('button', { name: 'Keep as reference layer' }).click();
  await expect(page.getByTestId('boundary-outcome')).toHaveText('Layer "Beats" kept: 9 features.');
  await expect(page.getByRole('checkbox', { name: 'Beats (9)' })).toBeChecked();

  // Outlines in the layer's colour on the areas' canvas, and the beats' names on the label canvas.
  await page.evaluate(() => window.__blotterMapTest?.setView(0, 0, 2));
  const [la, lo] = [
    (middle.rings[0]![0]![0] + middle.rings[0]![2]![0]) / 2,
    (middle.rings[0]![0]![1] + middle.rings[0]![2]![1]) / 2,
  ];
  await page.evaluate(([lat, lon]) => window.__blotterMapTest?.setView(lat!, lon!, 13), [la, lo]);
  const labels = page.getByTestId('layer-labels');
  await expect(labels).toHaveAttribute('data-labels-drawn', /^[1-9]\d*$/);
  const outlinePixels = await page.evaluate(() => {
    let n = 0;
    for (const c of document.querySelectorAll<HTMLCanvasElement>('.leaflet-blotter-areas-pane canvas')) {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0) continue;
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 4)
        if (
          Math.abs(d[i]! - 0x7b) < 30 &&
          Math.abs(d[i + 1]! - 0x3f) < 30 &&
          Math.abs(d[i + 2]! - 0xb8) < 30 &&
          d[i + 3]! > 200
        )
          n++;
    }
    return n;
  });
  expect(outlinePixels).toBeGreaterThan(200);
  await page.screenshot({ path: 'e2e/artifacts/boundaries-map.png' });

  // Filter by the middle beat, all dates: the count is the one computed here from the same file.
  await page.getByRole('button', { name: 'All history' }).click();
  const panel = page.getByTestId('layers-panel');
  await panel.getByLabel('Layer', { exact: true }).selectOption({ label: 'Beats' });
  await panel.getByLabel('Feature', { exact: true }).selectOption({ label: middle.name });
  await panel.getByLabel('Distance').fill('0');
  await panel.getByRole('button', { name: 'Filter by this feature' }).click();
  await expect(page.getByTestId('feature-chip')).toContainText(`Inside ${middle.name} (Beats)`);
  const total = page.getByTestId('filtered-count');
  await expect(total).toHaveAttribute('data-loading', 'false');
  await expect(total).toHaveText(`${expected.toLocaleString('en-US')} incidents`);

  await openView(page, 'Table');
  await expect(page.getByTestId('incident-table')).toHaveAttribute('data-total', String(expected));

  // Count within 1,000 ft of each beat over every incident (the chip removed), each counted once.
  await openView(page, 'Map');
  await page.getByRole('button', { name: 'Remove the layer filter' }).click();
  await expect(page.getByTestId('feature-chip')).toHaveCount(0);
  if (!(await panel.isVisible())) await page.getByRole('button', { name: /^Layers/ }).click();
  await panel.getByLabel('Distance').fill('1,000');
  await panel.getByLabel('Unit').selectOption('ft');
  await panel.getByRole('button', { name: 'Count near each feature' }).click();

  const zone = Math.floor((lo + 180) / 6) + 1;
  const utm = proj4('EPSG:4326', `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`);
  const xy = (lat: number, lon: number) => utm.forward([lon, lat]) as [number, number];
  const near = (lat: number, lon: number, b: Beat) => {
    if (inside(lat, lon, b)) return true;
    const [px, py] = xy(lat, lon);
    return b.rings.some((ring) =>
      ring.some((p, i) => {
        const [ax, ay] = xy(...p);
        const [bx, by] = xy(...ring[(i + 1) % ring.length]!);
        const t = Math.max(
          0,
          Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
        );
        return Math.hypot(ax + t * (bx - ax) - px, ay + t * (by - ay) - py) <= 304.8;
      }),
    );
  };
  const distinct = rows.filter((r) => beats.some((b) => near(r.lat, r.lon, b))).length;
  await expect(page.getByTestId('buffer-total')).toContainText(
    `${distinct.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} matching incidents are within 1,000 ft of a feature of “Beats”`,
  );
  const perBeat = beats.map((b) => rows.filter((r) => near(r.lat, r.lon, b)).length.toLocaleString('en-US'));
  await expect(page.getByTestId('buffer-feature-count')).toHaveText(perBeat);

  // The same file again, one beat chosen by its name made an area to sync, through the area store.
  await page.getByTestId('boundary-file').setInputFiles({
    name: 'beats.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(geojson(beats)),
  });
  await expect(preview).toBeVisible();
  await preview.getByLabel('Areas from').selectOption({ label: middle.name });
  await preview.getByRole('button', { name: 'Make areas to sync' }).click();
  await expect(page.getByTestId('boundary-outcome')).toContainText('1 area added to sync (see Areas).');
  await expect(
    page.getByLabel('Area', { exact: true }).locator('option', { hasText: middle.name }),
  ).toHaveCount(1);

  // Renamed: the list and the map's layer follow.
  await page.getByRole('button', { name: 'Rename the layer Beats' }).click();
  await page.getByLabel('New name for Beats').fill('Police beats');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('checkbox', { name: 'Police beats (9)' })).toBeChecked();
});

/** `beats` wavy beats of `corners` corners each, as GeoJSON (a file that takes seconds to read). */
function wavyBeats(beats: number, corners: number): string {
  const features = Array.from({ length: beats }, (_, k) => {
    const [lat0, lon0] = [41.7 + (k % 25) * 0.02, -87.9 + Math.floor(k / 25) * 0.02];
    const ring = Array.from({ length: corners }, (_, i) => {
      const a = (i / corners) * 2 * Math.PI;
      const r = 0.008 * (1 + 0.2 * Math.sin(37 * a));
      return [lon0 + r * Math.cos(a), lat0 + r * Math.sin(a)];
    });
    return {
      type: 'Feature',
      properties: { BEAT: `Beat ${k + 1}` },
      geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] },
    };
  });
  return JSON.stringify({ type: 'FeatureCollection', features });
}

test('reading a big boundary file can be cancelled: nothing is kept, and the next file reads', async ({
  page,
}) => {
  await openView(page, 'Map');
  await page.getByRole('button', { name: /^Layers/ }).click();
  // 1M corners (~40 MB): seconds to read on the engine's helper thread.
  await page.getByTestId('boundary-file').setInputFiles({
    name: 'big.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(wavyBeats(250, 4000)),
  });
  const cancel = page.getByTestId('boundary-cancel-reading');
  const outcome = page.getByTestId('boundary-outcome');
  // Cancel is shown from the upload on; pressed before the engine's read began it answers false.
  await expect(async () => {
    await cancel.click({ timeout: 1_000 });
    await expect(outcome).toHaveText('Reading cancelled.', { timeout: 300 });
  }).toPass({ timeout: 30_000 });
  await expect(cancel).toHaveCount(0);
  await expect(page.getByTestId('boundary-preview')).toHaveCount(0);
  await expect(page.getByTestId('boundary-problem')).toHaveCount(0);

  await page.getByTestId('boundary-file').setInputFiles({
    name: 'small.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(wavyBeats(2, 100)),
  });
  await expect(page.getByTestId('boundary-preview')).toContainText('small.geojson: 2 features (polygons)');
  await expect(outcome).toHaveCount(0);
});
