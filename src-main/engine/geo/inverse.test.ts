/**
 * The non-iterative inverses against proj4 and against PROJ's own `cs2cs` (Debian proj-bin) at a
 * grid of points over every bundled zone's area of use: under a millimetre everywhere, in metres,
 * US survey feet and international feet alike.
 */
import { execFileSync } from 'node:child_process';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { fastInverse } from './inverse';
import { unprojector, zones, type Zone } from './projection';

const GRID = 6; // 7 × 7 points over each zone's area

/** The distance between two lat/lon points a millimetre apart, in metres (flat at this scale). */
function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLon = ((((a.lon - b.lon) % 360) + 540) % 360) - 180;
  const k = 111_320;
  return Math.hypot((a.lat - b.lat) * k, dLon * k * Math.cos((a.lat * Math.PI) / 180));
}

/** Points in the zone's area, as X/Y in its own units (proj4's forward projection). */
function gridOf(zone: Zone): { x: number; y: number }[] {
  const conv = proj4(zone.proj4, 'EPSG:4326');
  const [w, s, e0, n] = zone.area;
  const e = e0 < w ? e0 + 360 : e0; // the Aleutians cross the antimeridian
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i <= GRID; i++)
    for (let j = 0; j <= GRID; j++) {
      const lon = w + ((e - w) * i) / GRID;
      const [x, y] = conv.inverse([lon > 180 ? lon - 360 : lon, s + ((n - s) * j) / GRID]) as [
        number,
        number,
      ];
      out.push({ x, y });
    }
  return out;
}

/** cs2cs: the zone's X/Y → its datum's geographic lat/lon (EPSG:4269 for NAD83, 4326 for WGS 84). */
function cs2cs(zone: Zone, points: { x: number; y: number }[]): { lat: number; lon: number }[] {
  const geographic = zone.name.startsWith('WGS 84') ? 'EPSG:4326' : 'EPSG:4269';
  const out = execFileSync('cs2cs', ['-f', '%.12f', `EPSG:${zone.epsg}`, geographic], {
    input: points.map((p) => `${p.x} ${p.y}\n`).join(''),
  }).toString();
  return out
    .trim()
    .split('\n')
    .map((line) => {
      const [lat, lon] = line.trim().split(/\s+/).map(Number) as [number, number];
      return { lat, lon };
    });
}

const fast = zones.filter((z) => fastInverse(z.proj4) !== null);

describe('the bundled zones’ inverse without iteration', () => {
  it('covers every Lambert conic, Transverse Mercator and UTM zone without a datum shift', () => {
    const others = zones.filter((z) => !fast.includes(z));
    for (const z of others) expect(z.proj4).toMatch(/\+proj=omerc|\+towgs84=(?!0,0,0,0,0,0,0 )/);
    expect(others.map((z) => z.epsg).sort((a, b) => a - b)).toEqual([
      3759, 26931, 26940, 26961, 26962, 26963, 26964, 26965,
    ]);
    expect(fast.length).toBe(309);
    // Zones in US survey feet and in international feet among them, of both projections.
    const kind = (epsg: number) => {
      const z = fast.find((q) => q.epsg === epsg);
      return `${/\+proj=(\w+)/.exec(z?.proj4 ?? '')?.[1]} ${z?.unit}`;
    };
    expect(kind(2276)).toBe('lcc us-ft'); // Texas North Central (ftUS)
    expect(kind(2253)).toBe('lcc ft'); // Michigan South (ft)
    expect(kind(2236)).toBe('tmerc us-ft'); // Florida East (ftUS)
    expect(kind(2222)).toBe('tmerc ft'); // Arizona East (ft)
    expect(kind(32618)).toBe('utm m'); // WGS 84 / UTM 18N
  });

  it.each(fast.map((z) => [z.epsg, z.name, z] as const))(
    'EPSG:%i %s: within a millimetre of proj4 and cs2cs over its area',
    (_epsg, _name, zone) => {
      const points = gridOf(zone);
      const ours = fastInverse(zone.proj4);
      expect(ours).not.toBeNull();
      const viaProj4 = proj4(zone.proj4, 'EPSG:4326');
      const truth = cs2cs(zone, points);
      expect(truth).toHaveLength(points.length);
      points.forEach((p, i) => {
        const a = ours!(p.x, p.y);
        const [lon, lat] = viaProj4.forward([p.x, p.y]) as [number, number];
        expect(metres(a, { lat, lon })).toBeLessThan(0.001);
        expect(metres(a, truth[i]!)).toBeLessThan(0.001);
      });
      // And it is what the import uses for this zone.
      const p = points[GRID + 1]!;
      expect(unprojector({ epsg: zone.epsg })(p.x, p.y)).toEqual(ours!(p.x, p.y));
    },
  );

  it('leaves any other PROJ string to proj4', () => {
    expect(fastInverse('+proj=omerc +lat_0=57 +lonc=-133.6 +alpha=323 +k=0.9999 +ellps=GRS80')).toBeNull();
    expect(fastInverse('+proj=lcc +lat_1=33 +lat_2=45 +ellps=clrk66 +units=m')).toBeNull();
    expect(fastInverse('+proj=tmerc +lon_0=-90 +ellps=GRS80 +units=m +over')).toBeNull();
    expect(fastInverse('+proj=utm +zone=18 +south +datum=WGS84')).toBeNull();
    expect(fastInverse('+proj=tmerc +lon_0=-90 +ellps=GRS80 +units=km')).toBeNull();
  });
});
