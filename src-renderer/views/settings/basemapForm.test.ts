import { describe, expect, it } from 'vitest';
import { basemapFormOf, basemapSettingOf, basemapStatusText } from './basemapForm';

describe('the Map settings form', () => {
  it('round-trips each kind of street layer', () => {
    expect(basemapFormOf(undefined).kind).toBe('none');
    const url = { kind: 'url' as const, template: 'https://t.example/{z}/{x}/{y}.png', attribution: '© T' };
    expect(basemapSettingOf(basemapFormOf(url)).setting).toEqual(url);
    const file = { kind: 'file' as const, path: '/maps/city.pmtiles' };
    expect(basemapSettingOf(basemapFormOf(file)).setting).toEqual(file);
  });

  it('names the field that is wrong', () => {
    const form = { kind: 'url' as const, path: '', template: 'tiles/{z}/{x}.png', attribution: '' };
    const { setting, errors } = basemapSettingOf(form);
    expect(setting).toBeNull();
    expect(errors.template).toMatch(/http/);
    expect(errors.attribution).toMatch(/attribution/);
    expect(basemapSettingOf({ ...form, kind: 'file', path: '/maps/city.zip' }).errors.path).toMatch(
      /\.mbtiles/,
    );
  });

  it('says what the street layer is in plain words', () => {
    const base = {
      name: null,
      attribution: null,
      format: null,
      minZoom: 0,
      maxZoom: 19,
      bounds: null,
      cache: null,
      problem: null,
    };
    expect(basemapStatusText({ ...base, kind: 'none', status: 'none' })).toMatch(/offline/);
    expect(
      basemapStatusText({ ...base, kind: 'file', status: 'error', problem: 'There is no file at /x.' }),
    ).toBe('There is no file at /x.');
    expect(
      basemapStatusText({ ...base, kind: 'url', status: 'ready', cache: { tiles: 3, bytes: 10 } }),
    ).toMatch(/only for the map areas you view. 3 tiles/);
  });
});
