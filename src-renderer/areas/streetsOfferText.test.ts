import { describe, expect, it } from 'vitest';
import type { BasemapEstimate } from '../../src-shared/basemap';
import { downloadLabel as offerConfirmLabel } from '../views/settings/basemapText';
import { offerEstimateText } from './streetsOfferText';

const estimate = (over: Partial<BasemapEstimate> = {}): BasemapEstimate => ({
  source: 'https://tiles.example.org/city.pmtiles',
  areas: 2,
  tiles: 190,
  bytes: 120_000,
  tilesToFetch: 31,
  bytesToFetch: 20_000,
  requests: 2,
  resumed: false,
  minZoom: 0,
  maxZoom: 15,
  freeBytes: 50e9,
  reusedTiles: 159,
  newVersion: false,
  ...over,
});

describe('"Extend offline map to this area"', () => {
  it('says the size first, and how many tiles already here are kept', () => {
    const text = offerEstimateText(estimate());
    expect(text).toMatch(/^About 190 tiles, 0\.1 MB, for 2 areas \(zoom 0–15, each area plus 1 km\)/);
    expect(text).toContain('159 tiles are already here and are kept.');
    expect(text).not.toContain('new version');
    expect(offerConfirmLabel(estimate())).toBe('Download');
  });

  it('offers to start over when the source has a new version (rebuilt whole, nothing kept)', () => {
    const e = estimate({ newVersion: true, reusedTiles: 0, tilesToFetch: 190 });
    expect(offerEstimateText(e)).toContain('The source has a new version');
    expect(offerEstimateText(e)).not.toContain('already here');
    expect(offerConfirmLabel(e)).toBe('Start over with the new version');
    // An unfinished download of another build (the engine's conflict) asks the same.
    expect(offerConfirmLabel(null, true)).toBe('Start over with the new version');
  });
});
