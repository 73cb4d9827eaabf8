import { expect, type Page } from '@playwright/test';
import { openView } from './app';

/** Two squares over the seeded city (Chicago): everything north of 41.85° and everything south. */
export const HALVES = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    ['North half', 41.85, 42.2],
    ['South half', 41.5, 41.85],
  ].map(([name, south, north]) => ({
    type: 'Feature',
    properties: { NAME: name },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [-88.1, south],
          [-87.4, south],
          [-87.4, north],
          [-88.1, north],
          [-88.1, south],
        ],
      ],
    },
  })),
});

/** Opens the Map's Layers panel and keeps HALVES as the reference layer "Halves"; returns the panel. */
export async function importHalvesLayer(page: Page) {
  await openView(page, 'Map');
  await page.getByRole('button', { name: /^Layers/ }).click();
  const panel = page.getByTestId('layers-panel');
  await page.getByTestId('boundary-file').setInputFiles({
    name: 'halves.geojson',
    mimeType: 'application/geo+json',
    buffer: Buffer.from(HALVES),
  });
  const preview = page.getByTestId('boundary-preview');
  await preview.getByLabel('Layer name').fill('Halves');
  await preview.getByRole('button', { name: 'Keep as reference layer' }).click();
  await expect(panel.getByRole('checkbox', { name: 'Halves (2)' })).toBeChecked();
  return panel;
}
