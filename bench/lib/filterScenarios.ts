/**
 * A realistic sequence of filter changes over the seeded cities: what an analyst clicks through
 * in the filter bar. Every step differs from the ones before it, so no step is a cache hit.
 */
import { dayNumber, dayString, type Filters } from '../../src-shared/filters';

const CHICAGO = { lat: 41.8781, lon: -87.6298 };
const POLYGON: [number, number][] = [
  [41.86, -87.7],
  [41.92, -87.69],
  [41.93, -87.61],
  [41.87, -87.6],
  [41.84, -87.65],
];

export function filterSequence(areaId: number, endDay: string): Filters[] {
  const day = (offset: number) => dayString(dayNumber(endDay) + offset);
  const quarter = { from: day(-540), to: day(-450) };
  const year = { from: day(-600), to: day(-236) };
  return [
    {},
    { preset: '30d' },
    { preset: '30d', types: ['Theft'] },
    { preset: '30d', types: ['Theft', 'Robbery'] },
    { preset: '30d', types: ['Theft', 'Robbery'], hours: [22, 6] },
    { preset: '30d', types: ['Theft', 'Robbery'], hours: [22, 6], weekdays: [5, 6] },
    { preset: '90d', types: ['Theft', 'Robbery'], hours: [22, 6], weekdays: [5, 6] },
    { preset: '90d', hours: [22, 6], weekdays: [5, 6] },
    { preset: '90d', weekdays: [5, 6] },
    { preset: '90d' },
    { preset: '7d' },
    { preset: 'all' },
    { preset: 'all', types: ['Shooting'] },
    { preset: 'all', types: ['Shooting', 'Assault'] },
    { preset: 'all', types: ['Shooting', 'Assault'], area: { areaId } },
    { preset: 'all', area: { areaId } },
    { preset: '90d', area: { areaId } },
    { preset: '90d', area: { circle: { ...CHICAGO, radiusMi: 2 } } },
    { preset: '90d', area: { circle: { ...CHICAGO, radiusMi: 5 } } },
    { preset: 'all', area: { circle: { ...CHICAGO, radiusMi: 5 } } },
    { preset: 'all', area: { polygon: POLYGON } },
    { preset: '30d', area: { polygon: POLYGON } },
    { preset: '30d', area: { polygon: POLYGON }, types: ['Burglary'] },
    { preset: 'all', text: 'w' },
    { preset: 'all', text: 'wa' },
    { preset: 'all', text: 'was' },
    { preset: 'all', text: 'wash' },
    { preset: 'all', text: 'washington' },
    { preset: 'all', text: 'washington st' },
    { preset: 'all', text: '"block of n"' },
    { preset: '90d', text: 'fled' },
    { preset: '90d', text: 'fled foot' },
    { preset: '90d', text: 'fled foot', area: { areaId } },
    { ...quarter },
    { ...quarter, types: ['Assault'] },
    { ...quarter, types: ['Assault'], hours: [18, 24] },
    { ...year, includeRemoved: true },
    { preset: 'all', includeRemoved: true },
  ];
}
