import { describe, expect, it } from 'vitest';
import { downloadLabel, estimateText, newVersionText, progressText } from './basemapText';

describe('Settings › Map: the areas’ download in words', () => {
  it('says the estimate: tiles, size, areas, zooms, free space, and what a resume still needs', () => {
    const e = {
      source: 'https://x/a.pmtiles',
      areas: 2,
      tiles: 2015,
      bytes: 48_200_000,
      tilesToFetch: 1000,
      bytesToFetch: 20_000_000,
      requests: 40,
      resumed: true,
      minZoom: 0,
      maxZoom: 15,
      freeBytes: 12_300_000_000,
    };
    expect(estimateText(e)).toBe(
      'About 2,015 tiles, 48.2 MB, for 2 areas (zoom 0–15, each area plus 1 km). 12.3 GB free on this disk. 20.0 MB of it still to download (resuming).',
    );
  });
  it('says the progress with the time left, and how it ended', () => {
    const p = { tilesDone: 500, tilesTotal: 2015, bytesDone: 12e6, bytesTotal: 48e6, secondsLeft: 41.2 };
    expect(progressText({ ...p, state: 'running' })).toBe(
      '500 of 2,015 tiles · 12.0 MB of 48.0 MB · about 42 s left',
    );
    expect(progressText({ ...p, state: 'cancelled' })).toMatch(/^Cancelled at 500 of 2,015 tiles.*resume/);
    expect(progressText({ ...p, state: 'failed', message: 'The source changed.' })).toBe(
      'The source changed.',
    );
  });
  it('says a new version of the source: the extract rebuilt whole, its size, and a start-over button', () => {
    const e = {
      source: 'https://x/b.pmtiles',
      areas: 2,
      tiles: 2015,
      bytes: 48_200_000,
      tilesToFetch: 2015,
      bytesToFetch: 48_200_000,
      requests: 40,
      resumed: false,
      minZoom: 0,
      maxZoom: 15,
      freeBytes: 12_300_000_000,
      reusedTiles: 0,
    };
    expect(newVersionText({ ...e, newVersion: true })).toBe(
      'The source has a new version: the extract will be rebuilt whole (2,015 tiles, 48.2 MB).',
    );
    expect(downloadLabel({ ...e, newVersion: true })).toBe('Start over with the new version');
    expect(newVersionText({ ...e, newVersion: false })).toBeNull();
    expect(newVersionText(e)).toBeNull();
    expect(downloadLabel(e)).toBe('Download');
    expect(downloadLabel(null)).toBe('Download');
  });
});
