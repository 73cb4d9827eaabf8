/**
 * Non-iterative inverses of the two projections the bundled zones use — Lambert Conformal Conic
 * (two standard parallels: the State Plane zones that run east–west) and Transverse Mercator (the
 * zones that run north–south, and UTM) — for the mapped import's one call per row. proj4's LCC
 * inverse iterates for the latitude (up to 15 rounds of sin, pow and atan, about a third of a
 * check thread's time); here both go through the conformal latitude χ, and χ → φ is a fixed
 * trigonometric series in the third flattening n (Krüger / Engsager–Poder, as PROJ's own `tmerc`
 * does), summed by Clenshaw's method. Six orders of n: the series' error is below 1e-15 rad, far
 * under a millimetre (`inverse.test.ts` holds every bundled zone to < 1 mm of proj4 and cs2cs).
 *
 * Only PROJ strings of the bundled list's shape are read (`+proj=lcc|tmerc|utm`, `+ellps=GRS80`
 * or `+datum=NAD83|WGS84`, a null `+towgs84`, `+units=m|us-ft|ft`); anything else — the Alaska
 * oblique Mercator, a zone with a datum shift, a user's WKT — returns null and stays with proj4.
 */

export type Inverse = (x: number, y: number) => { lat: number; lon: number };

const DEG = Math.PI / 180;

const ELLIPSOIDS: Record<string, { a: number; rf: number }> = {
  GRS80: { a: 6378137, rf: 298.257222101 },
  WGS84: { a: 6378137, rf: 298.257223563 },
};
const DATUM_ELLIPSOID: Record<string, string> = { NAD83: 'GRS80', WGS84: 'WGS84' };
const UNITS: Record<string, number> = { m: 1, 'us-ft': 1200 / 3937, ft: 0.3048 };
const KNOWN = new Set(['proj', 'lat_0', 'lon_0', 'lat_1', 'lat_2', 'x_0', 'y_0', 'k', 'k_0']);
const IGNORED = new Set(['ellps', 'datum', 'towgs84', 'units', 'no_defs', 'zone', 'type']);

/** The inverse for a PROJ string of the bundled list's shape, or null (then proj4 answers). */
export function fastInverse(def: string): Inverse | null {
  const p = new Map<string, string>();
  for (const token of def.trim().split(/\s+/)) {
    const m = /^\+([a-z_0-9]+)(?:=(\S*))?$/i.exec(token);
    if (!m) return null;
    const key = m[1] as string;
    if (!KNOWN.has(key) && !IGNORED.has(key)) return null;
    p.set(key, m[2] ?? '');
  }
  const ellName = p.get('ellps') ?? DATUM_ELLIPSOID[p.get('datum') ?? ''];
  const ell = ellName !== undefined ? ELLIPSOIDS[ellName] : undefined;
  if (!ell || (p.has('datum') && !DATUM_ELLIPSOID[p.get('datum') as string])) return null;
  const shift = p.get('towgs84');
  if (shift !== undefined && !shift.split(',').every((v) => Number(v) === 0)) return null;
  const toMetre = UNITS[p.get('units') ?? 'm'];
  if (toMetre === undefined) return null;
  const num = (key: string, fallback: number): number => {
    const v = p.get(key);
    return v === undefined ? fallback : Number(v);
  };
  const f = 1 / ell.rf;
  const shape = { a: ell.a, f, toMetre, x0: num('x_0', 0), y0: num('y_0', 0) };
  const proj = p.get('proj');
  let inverse: Inverse | null = null;
  if (proj === 'lcc' && p.has('lat_1')) {
    const lat1 = num('lat_1', Number.NaN);
    inverse = lambertConic({
      ...shape,
      lat0: num('lat_0', lat1) * DEG,
      lon0: num('lon_0', 0) * DEG,
      lat1: lat1 * DEG,
      lat2: num('lat_2', lat1) * DEG,
      k0: num('k_0', num('k', 1)),
    });
  } else if (proj === 'tmerc') {
    inverse = transverseMercator({
      ...shape,
      lat0: num('lat_0', 0) * DEG,
      lon0: num('lon_0', 0) * DEG,
      k0: num('k_0', num('k', 1)),
    });
  } else if (proj === 'utm') {
    const zone = num('zone', Number.NaN);
    if (!(Number.isInteger(zone) && zone >= 1 && zone <= 60) || p.has('south')) return null;
    inverse = transverseMercator({
      ...shape,
      x0: 500_000,
      y0: 0,
      lat0: 0,
      lon0: (zone * 6 - 183) * DEG,
      k0: 0.9996,
    });
  }
  return inverse;
}

type Shape = { a: number; f: number; toMetre: number; x0: number; y0: number };

/**
 * The series coefficients for the third flattening n (PROJ's names): conformal → geodetic latitude
 * (`cgb`), Gauss–Krüger plane → conformal sphere (`utg`, that is −β) and back (`gtu`, α), and the
 * rectifying radius over a (`qn`, A/a).
 */
function seriesFor(f: number) {
  const n = f / (2 - f);
  const n2 = n * n;
  const n3 = n2 * n;
  const n4 = n3 * n;
  const n5 = n4 * n;
  const n6 = n5 * n;
  return {
    qn: (1 + n2 / 4 + n4 / 64 + n6 / 256) / (1 + n),
    cgb: [
      n * (2 + n * (-2 / 3 + n * (-2 + n * (116 / 45 + n * (26 / 45 + n * (-2854 / 675)))))),
      n2 * (7 / 3 + n * (-8 / 5 + n * (-227 / 45 + n * (2704 / 315 + n * (2323 / 945))))),
      n3 * (56 / 15 + n * (-136 / 35 + n * (-1262 / 105 + n * (73814 / 2835)))),
      n4 * (4279 / 630 + n * (-332 / 35 + n * (-399572 / 14175))),
      n5 * (4174 / 315 + n * (-144838 / 6237)),
      n6 * (601676 / 22275),
    ],
    utg: [
      n * (-0.5 + n * (2 / 3 + n * (-37 / 96 + n * (1 / 360 + n * (81 / 512 + n * (-96199 / 604800)))))),
      n2 * (-1 / 48 + n * (-1 / 15 + n * (437 / 1440 + n * (-46 / 105 + n * (1118711 / 3870720))))),
      n3 * (-17 / 480 + n * (37 / 840 + n * (209 / 4480 + n * (-5569 / 90720)))),
      n4 * (-4397 / 161280 + n * (11 / 504 + n * (830251 / 7257600))),
      n5 * (-4583 / 161280 + n * (108847 / 3991680)),
      n6 * (-20648693 / 638668800),
    ],
    gtu: [
      n * (0.5 + n * (-2 / 3 + n * (5 / 16 + n * (41 / 180 + n * (-127 / 288 + n * (7891 / 37800)))))),
      n2 * (13 / 48 + n * (-3 / 5 + n * (557 / 1440 + n * (281 / 630 + n * (-1983433 / 1935360))))),
      n3 * (61 / 240 + n * (-103 / 140 + n * (15061 / 26880 + n * (167603 / 181440)))),
      n4 * (49561 / 161280 + n * (-179 / 168 + n * (6601661 / 7257600))),
      n5 * (34729 / 80640 + n * (-3418889 / 1995840)),
      n6 * (212378941 / 319334400),
    ],
  };
}

/** θ + Σ c[j] sin(2(j+1)θ), given sin 2θ and cos 2θ (Clenshaw's sum). */
function plusSines(c: number[], theta: number, sin2: number, cos2: number): number {
  const r = 2 * cos2;
  let b1 = 0;
  let b2 = 0;
  for (let j = c.length - 1; j >= 0; j--) {
    const b0 = (c[j] as number) + r * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  return theta + b1 * sin2;
}

/** Longitude in (−π, π], as PROJ writes it. */
function wrap(lon: number): number {
  if (lon > Math.PI) return lon - 2 * Math.PI * Math.ceil((lon - Math.PI) / (2 * Math.PI));
  if (lon <= -Math.PI) return lon + 2 * Math.PI * Math.ceil((-Math.PI - lon) / (2 * Math.PI));
  return lon;
}

/** Geodetic → conformal latitude, exactly (for the origin, once per zone). */
function conformal(phi: number, e: number): number {
  const s = Math.sin(phi);
  return Math.atan(Math.sinh(Math.asinh(Math.tan(phi)) - e * Math.atanh(e * s)));
}

/** Snyder's t: tan(π/4 − φ/2) / ((1 − e sin φ) / (1 + e sin φ))^(e/2). */
function tOf(phi: number, e: number): number {
  const s = e * Math.sin(phi);
  return Math.tan(Math.PI / 4 - phi / 2) / Math.pow((1 - s) / (1 + s), e / 2);
}

function mOf(phi: number, e2: number): number {
  const s = Math.sin(phi);
  return Math.cos(phi) / Math.sqrt(1 - e2 * s * s);
}

/** Lambert Conformal Conic (1 or 2 standard parallels, northern cone), inverse (Snyder 15-9 to 15-11, 7-9). */
function lambertConic(
  z: Shape & { lat0: number; lon0: number; lat1: number; lat2: number; k0: number },
): Inverse | null {
  const e2 = z.f * (2 - z.f);
  const e = Math.sqrt(e2);
  const m1 = mOf(z.lat1, e2);
  const t1 = tOf(z.lat1, e);
  const n =
    Math.abs(z.lat1 - z.lat2) < 1e-10
      ? Math.sin(z.lat1)
      : (Math.log(m1) - Math.log(mOf(z.lat2, e2))) / (Math.log(t1) - Math.log(tOf(z.lat2, e)));
  // A cone opening south (n < 0) is not among the bundled zones: proj4 answers for one.
  if (!(n > 1e-10 && n < 1)) return null;
  const aF = (z.a * z.k0 * m1) / (n * Math.pow(t1, n));
  const rho0 = aF * Math.pow(tOf(z.lat0, e), n);
  const { cgb } = seriesFor(z.f);
  const invN = 1 / n;
  return (x, y) => {
    const dx = x * z.toMetre - z.x0;
    const dy = rho0 - (y * z.toMetre - z.y0);
    const rho = Math.sqrt(dx * dx + dy * dy);
    const lon = wrap(Math.atan2(dx, dy) * invN + z.lon0);
    // χ from t = (ρ / aF)^(1/n): tan(π/4 − χ/2) = t; then φ by the series.
    const t = Math.pow(rho / aF, invN);
    const chi = Math.PI / 2 - 2 * Math.atan(t);
    const s = (2 * t) / (1 + t * t); // cos χ
    const c = (1 - t * t) / (1 + t * t); // sin χ
    const lat = plusSines(cgb, chi, 2 * c * s, s * s - c * c);
    return { lat: lat / DEG, lon: lon / DEG };
  };
}

/**
 * Transverse Mercator, inverse, by Krüger's series to sixth order (Karney 2011; PROJ's default
 * `tmerc`): plane → conformal sphere by the β series in complex Clenshaw form, then χ → φ.
 */
function transverseMercator(z: Shape & { lat0: number; lon0: number; k0: number }): Inverse {
  const e = Math.sqrt(z.f * (2 - z.f));
  const { qn, cgb, gtu, utg } = seriesFor(z.f);
  const scale = z.k0 * z.a * qn; // k0 · A, metres per unit of ξ, η
  // The origin's northing on the plane: the meridian arc to lat_0, on the conformal sphere.
  const chi0 = conformal(z.lat0, e);
  const xi0 = plusSines(gtu, chi0, Math.sin(2 * chi0), Math.cos(2 * chi0));
  const north0 = scale * xi0;
  return (x, y) => {
    const xi = (y * z.toMetre - z.y0 + north0) / scale;
    const eta = (x * z.toMetre - z.x0) / scale;
    // ζ' = ζ + Σ utg[j] sin(2(j+1)ζ), ζ = ξ + iη, by complex Clenshaw.
    const sin2x = Math.sin(2 * xi);
    const cos2x = Math.cos(2 * xi);
    const ex = Math.exp(2 * eta);
    const sinh2e = (ex - 1 / ex) / 2;
    const cosh2e = (ex + 1 / ex) / 2;
    const rRe = 2 * cos2x * cosh2e; // 2 cos 2ζ
    const rIm = -2 * sin2x * sinh2e;
    let b1Re = 0;
    let b1Im = 0;
    let b2Re = 0;
    let b2Im = 0;
    for (let j = utg.length - 1; j >= 0; j--) {
      const re = (utg[j] as number) + rRe * b1Re - rIm * b1Im - b2Re;
      const im = rRe * b1Im + rIm * b1Re - b2Im;
      b2Re = b1Re;
      b2Im = b1Im;
      b1Re = re;
      b1Im = im;
    }
    const sRe = sin2x * cosh2e; // sin 2ζ
    const sIm = cos2x * sinh2e;
    const xiP = xi + b1Re * sRe - b1Im * sIm;
    const etaP = eta + b1Re * sIm + b1Im * sRe;
    const sinhEta = Math.sinh(etaP);
    const cosXi = Math.cos(xiP);
    const sinXi = Math.sin(xiP);
    // χ = atan2(sin ξ', hypot(sinh η', cos ξ')) — the conformal latitude; λ on the sphere.
    const chi = Math.atan2(sinXi, Math.sqrt(sinhEta * sinhEta + cosXi * cosXi));
    const lon = wrap(z.lon0 + Math.atan2(sinhEta, cosXi));
    const lat = plusSines(cgb, chi, Math.sin(2 * chi), Math.cos(2 * chi));
    return { lat: lat / DEG, lon: lon / DEG };
  };
}
