import { describe, expect, it } from 'vitest';
import { searchPlaces } from './index';
import { parseGazetteer } from './parse';
import { searchGazetteer } from './search';

const TINY = [
  '# test',
  '#cities',
  'Springfield\tIL\t39.800\t-89.650\t12',
  'Springfield\tMA\t42.100\t-72.590\t9',
  'West Springfield\tMA\t42.110\t-72.640\t1',
  'Spring Valley\tNY\t41.110\t-74.040\t1',
  'Saint-Éloi\tLA\t30.000\t-90.000\t1',
  '#zips',
  '01089\t2\t42.110\t-72.640',
  '62701\t0\t39.800\t-89.650',
  '62702\t0\t39.820\t-89.640',
  '',
].join('\n');

describe('the gazetteer', () => {
  const g = parseGazetteer(TINY);

  it('finds cities: exact names first, then prefixes, then words; a state narrows', () => {
    expect(searchGazetteer(g, 'springfield').map((p) => p.label)).toEqual([
      'Springfield, IL',
      'Springfield, MA',
      'West Springfield, MA',
    ]);
    expect(searchGazetteer(g, 'Springfield, MA').map((p) => p.label)).toEqual([
      'Springfield, MA',
      'West Springfield, MA',
    ]);
    expect(searchGazetteer(g, 'springfield il')[0]).toEqual({
      label: 'Springfield, IL',
      kind: 'city',
      lat: 39.8,
      lon: -89.65,
      state: 'IL',
    });
    expect(searchGazetteer(g, 'spring').map((p) => p.label)).toContain('Spring Valley, NY');
    expect(searchGazetteer(g, 'saint eloi')[0]?.label).toBe('Saint-Éloi, LA');
    expect(searchGazetteer(g, '   ')).toEqual([]);
  });

  it('finds ZIP codes by their digits', () => {
    expect(searchGazetteer(g, '627').map((p) => p.label)).toEqual([
      '62701 · Springfield, IL',
      '62702 · Springfield, IL',
    ]);
    expect(searchGazetteer(g, '01089')[0]).toMatchObject({ kind: 'zip', lat: 42.11, state: 'MA' });
    expect(searchGazetteer(g, '99999')).toEqual([]);
  });

  it('loads the bundled data lazily and finds real places', async () => {
    const chicago = await searchPlaces('Chicago, IL');
    expect(chicago[0]?.label).toBe('Chicago, IL');
    expect(chicago[0]?.lat).toBeCloseTo(41.85, 0);
    const zip = await searchPlaces('10001');
    expect(zip[0]?.label).toBe('10001 · New York, NY');
  });
});
