import { describe, expect, it } from 'vitest';
import type { BasemapInfo } from '../../../src-shared/basemap';
import { OSM_ATTRIBUTION, streetAttribution } from './attribution';

const info = (over: Partial<BasemapInfo>): BasemapInfo => ({
  kind: 'extract',
  status: 'ready',
  problem: null,
  attribution: null,
  name: null,
  format: 'mvt',
  minZoom: 0,
  maxZoom: 15,
  bounds: null,
  cache: null,
  ...over,
});

describe('the street layer’s attribution', () => {
  it('is the source’s own, as plain text', () => {
    expect(streetAttribution(info({ attribution: '<a href="x">Protomaps</a> &copy; OpenStreetMap' }))).toBe(
      'Protomaps © OpenStreetMap contributors',
    );
  });
  it('names OpenStreetMap’s contributors as its licence asks, once', () => {
    expect(streetAttribution(info({ attribution: '© OpenStreetMap' }))).toBe('© OpenStreetMap contributors');
    expect(streetAttribution(info({ attribution: '© OpenStreetMap contributors, © CARTO' }))).toBe(
      '© OpenStreetMap contributors, © CARTO',
    );
    expect(streetAttribution(info({ attribution: 'Data: City of Springfield' }))).toBe(
      'Data: City of Springfield',
    );
  });
  it('is OpenStreetMap’s for a vector basemap that names none', () => {
    expect(streetAttribution(info({}))).toBe(OSM_ATTRIBUTION);
    expect(OSM_ATTRIBUTION).toBe('© OpenStreetMap contributors');
  });
  it('is empty for a raster source without one, and without a basemap', () => {
    expect(streetAttribution(info({ format: 'png' }))).toBe('');
    expect(streetAttribution(null)).toBe('');
  });
});
