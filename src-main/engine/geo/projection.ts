/**
 * X/Y in a projected system → latitude/longitude (WGS 84 / NAD83, which agree within a metre or two
 * in the US; `towgs84` zero as EPSG's own NAD83 → WGS 84 null transform). The systems are the bundled
 * zones (`zones.json`, generated from PROJ's database by `zones.gen.py`: the NAD83 State Plane zones
 * in metres, US survey feet and international feet, and the NAD83 and WGS 84 UTM zones), or a
 * `.prj` / WKT the user supplies. The zones a file may be in are offered by its extent: those whose
 * area of use holds the file's X/Y corners once projected back.
 *
 * A bundled zone's inverse is `inverse.ts`'s (Lambert conic and Transverse Mercator without
 * iteration, within a micrometre of proj4 and PROJ); the zones it does not read — the Alaska
 * oblique Mercator and the few whose PROJ string carries a datum shift — and any WKT go to proj4.
 */
import { createRequire } from 'node:module';
import type proj4Module from 'proj4';
import { fastInverse } from './inverse';
import ZONES from './zones.json';

/**
 * proj4, loaded on its first use: loading it cost a thread's start ~60 ms of CPU (the boundary
 * helper's, for every file), and files in degrees or in a bundled zone `inverse.ts` reads never use it.
 */
let loadedProj4: typeof proj4Module | null = null;
const proj4 = (from: string, to: string): proj4Module.Converter =>
  (loadedProj4 ??= createRequire(import.meta.url)('proj4') as typeof proj4Module)(from, to);

export type Zone = {
  epsg: number;
  name: string;
  kind: 'state-plane' | 'utm';
  unit: 'm' | 'us-ft' | 'ft';
  proj4: string;
  /** The area of use: [west, south, east, north] in degrees. */
  area: [number, number, number, number];
};

export const zones = ZONES as Zone[];
const byEpsg = new Map(zones.map((z) => [z.epsg, z]));

export const zoneOf = (epsg: number): Zone | undefined => byEpsg.get(epsg);

export type Unproject = (x: number, y: number) => { lat: number; lon: number };

/**
 * Web Mercator's codes (EPSG's, the old unofficial 900913 and 3785, Esri's 102100 and 102113): what
 * web maps and their exports use, inverted in closed form on its sphere of the WGS 84 major axis.
 */
export const WEB_MERCATOR: ReadonlySet<number> = new Set([3857, 3785, 900913, 102100, 102113]);
const R = 6_378_137;
const webMercator: Unproject = (x, y) => ({
  lat: ((2 * Math.atan(Math.exp(y / R)) - Math.PI / 2) * 180) / Math.PI,
  lon: ((x / R) * 180) / Math.PI,
});

/** An inverse projection for an EPSG code of the bundled list (or Web Mercator), or for a WKT / .prj text. */
export function unprojector(system: { epsg: number } | { wkt: string }): Unproject {
  let def: string;
  if ('epsg' in system && WEB_MERCATOR.has(system.epsg)) return webMercator;
  if ('epsg' in system) {
    const zone = byEpsg.get(system.epsg);
    if (!zone) throw new Error(`EPSG:${system.epsg} is not one of the bundled State Plane or UTM zones.`);
    const fast = fastInverse(zone.proj4);
    if (fast) return fast;
    def = zone.proj4;
  } else def = withNad27Shift(readableWkt(system.wkt));
  const converter = proj4Of(def);
  return (x, y) => {
    const [lon, lat] = converter.forward([x, y]) as [number, number];
    return { lat, lon };
  };
}

/**
 * A WKT (or .prj) text proj4 may be given: none that names a grid file (`+nadgrids=@/etc/passwd`,
 * a web address, or a WKT's PROJ4 extension carrying one) — proj4 opens none, but would read every
 * point as null with a console message; such a system is refused by name instead.
 */
function readableWkt(wkt: string): string {
  if (/nadgrids|geoidgrids|PROJ4_GRIDS/i.test(wkt))
    throw new Error(
      'it names a grid shift file (nadgrids); Blotter reads no grid files — use a WKT without one, or a bundled zone.',
    );
  return wkt;
}

/** proj4's converter; what it throws (a bare string, or a RangeError for a WKT nested past reason) as an Error saying so. */
function proj4Of(def: string): proj4Module.Converter {
  try {
    return proj4(def, 'EPSG:4326');
  } catch (error) {
    const why =
      error instanceof RangeError
        ? 'its brackets are nested too deep'
        : error instanceof Error
          ? error.message
          : String(error);
    const short = why.length > 160 ? `${why.slice(0, 160)}…` : why;
    throw new Error(`the coordinate system text cannot be read (${short}).`);
  }
}

const NAD27_DATUM =
  /(DATUM\s*\[\s*"(?:D_North_American_1927|North_American_Datum_1927)"\s*,\s*SPHEROID\s*\[[^\]]*\])/i;

/** Whether a WKT's datum is NAD27 without a shift of its own (`withNad27Shift` gives it one). */
export const isBareNad27 = (wkt: string): boolean => NAD27_DATUM.test(wkt) && !/TOWGS84/i.test(wkt);

/**
 * A NAD27 WKT (an older county's .prj) given EPSG:1173's shift to WGS 84 (the contiguous US mean,
 * within about 10 m): proj4 has no NADCON grids offline and would read NAD27 as WGS 84, some 30 m
 * off in Texas. A WKT with its own TOWGS84, or another datum, is left as it is.
 */
export function withNad27Shift(wkt: string): string {
  return isBareNad27(wkt) ? wkt.replace(NAD27_DATUM, '$1,TOWGS84[-8,160,176,0,0,0,0]') : wkt;
}

/** Bundled zones whose area of use holds the extent's corners (a tenth of a degree of slack). */
export function zonesForExtent(extent: { minX: number; minY: number; maxX: number; maxY: number }): Zone[] {
  const corners = [
    [extent.minX, extent.minY],
    [extent.maxX, extent.maxY],
    [(extent.minX + extent.maxX) / 2, (extent.minY + extent.maxY) / 2],
  ] as const;
  return zones.filter((z) => {
    const un = proj4(z.proj4, 'EPSG:4326');
    return corners.every(([x, y]) => {
      const [lon, lat] = un.forward([x, y]) as [number, number];
      const [w, s, e, n] = z.area;
      return Number.isFinite(lat) && lon >= w - 0.1 && lon <= e + 0.1 && lat >= s - 0.1 && lat <= n + 0.1;
    });
  });
}
