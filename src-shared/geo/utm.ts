/**
 * Universal Transverse Mercator on WGS 84 (EPSG:326zz north, 327zz south): the zone of a place,
 * and the projection forward (lat/lon → easting/northing in metres) and back.
 *
 * Forward: Krüger's series in the third flattening n to order n⁴ (Karney 2011, eqs. 7–9 and 35),
 * under 0.1 mm within the zone. Back: the same series' inverse to the conformal latitude, then
 * the geographic latitude by Newton's method on the exact conformal relation (no truncated δ
 * series), so forward and back agree to well under a millimetre.
 */
import { RAD } from './units';

const A_AXIS = 6378137; // WGS 84 semi-major axis, metres
const F = 1 / 298.257223563;
const K0 = 0.9996;
const FALSE_EASTING = 500000;
const FALSE_NORTHING_SOUTH = 10000000;

const N = F / (2 - F);
const N2 = N * N;
const N3 = N2 * N;
const N4 = N3 * N;
/** First eccentricity. */
const E = Math.sqrt(F * (2 - F));
/** The rectifying radius A times k0. */
const K0A = (K0 * A_AXIS * (1 + N2 / 4 + N4 / 64)) / (1 + N);
const ALPHA = [
  N / 2 - (2 * N2) / 3 + (5 * N3) / 16 + (41 * N4) / 180,
  (13 * N2) / 48 - (3 * N3) / 5 + (557 * N4) / 1440,
  (61 * N3) / 240 - (103 * N4) / 140,
  (49561 * N4) / 161280,
] as const;
const BETA = [
  N / 2 - (2 * N2) / 3 + (37 * N3) / 96 - N4 / 360,
  N2 / 48 + N3 / 15 - (437 * N4) / 1440,
  (17 * N3) / 480 - (37 * N4) / 840,
  (4397 * N4) / 161280,
] as const;

export type UtmZone = { zone: number; south: boolean; epsg: number };

/**
 * The UTM zone of a place (the analysis uses the filtered incidents' centroid): 6° bands from
 * 180° W, with the standard exceptions of south-west Norway (32V) and Svalbard (31X–37X).
 */
export function utmZoneOf(lat: number, lon: number): UtmZone {
  const l = ((((lon + 180) % 360) + 360) % 360) - 180;
  let zone = Math.min(60, Math.floor((l + 180) / 6) + 1);
  if (lat >= 56 && lat < 64 && l >= 3 && l < 12) zone = 32;
  if (lat >= 72 && lat < 84 && l >= 0 && l < 42) zone = l < 9 ? 31 : l < 21 ? 33 : l < 33 ? 35 : 37;
  const south = lat < 0;
  return { zone, south, epsg: (south ? 32700 : 32600) + zone };
}

/** The central meridian of a zone, degrees. */
export const centralMeridian = (zone: number): number => (zone - 1) * 6 - 180 + 3;

/** ψ-style conformal τ' = tan χ from τ = tan φ (exact). */
function conformalTau(tau: number): number {
  const tau1 = Math.hypot(1, tau);
  const sig = Math.sinh(E * Math.atanh((E * tau) / tau1));
  return Math.hypot(1, sig) * tau - sig * tau1;
}

/** τ = tan φ from τ' = tan χ by Newton's method (Karney 2011, eqs. 19–21). */
function geographicTau(taup: number): number {
  const e2m = 1 - E * E;
  let tau = taup / e2m;
  for (let i = 0; i < 6; i++) {
    const tau1 = Math.hypot(1, tau);
    const tp = conformalTau(tau);
    const dtau = ((taup - tp) * (1 + e2m * tau * tau)) / (e2m * tau1 * Math.hypot(1, tp));
    tau += dtau;
    if (Math.abs(dtau) < 1e-14 * Math.max(1, Math.abs(tau))) break;
  }
  return tau;
}

export class UtmProjection implements UtmZone {
  readonly zone: number;
  readonly south: boolean;
  readonly epsg: number;
  private readonly lon0: number;
  private readonly n0: number;

  constructor(z: UtmZone | number, south = false) {
    const zone = typeof z === 'number' ? z : z.zone;
    this.south = typeof z === 'number' ? south : z.south;
    if (!(zone >= 1 && zone <= 60 && Number.isInteger(zone))) throw new RangeError(`No UTM zone ${zone}`);
    this.zone = zone;
    this.epsg = (this.south ? 32700 : 32600) + zone;
    this.lon0 = centralMeridian(zone);
    this.n0 = this.south ? FALSE_NORTHING_SOUTH : 0;
  }

  /** [easting, northing] in metres of a lat/lon in degrees. */
  forward(lat: number, lon: number): [number, number] {
    this.project(lat, lon);
    return [this.outE, this.outN];
  }

  private outE = 0;
  private outN = 0;

  /**
   * The forward projection into outE/outN, without allocating (a million points a call): the
   * multiple-angle terms of the series come from one sin/cos and one exp by the addition formulas.
   */
  private project(lat: number, lon: number): void {
    let dl = lon - this.lon0;
    if (dl > 180 || dl < -180) dl -= 360 * Math.round(dl / 360);
    const lam = dl * RAD;
    const cl = Math.cos(lam);
    const tau = Math.tan(lat * RAD);
    let taup: number;
    if (Math.abs(lat) >= 90) taup = Math.sign(lat) * Infinity;
    else {
      const tau1 = Math.sqrt(1 + tau * tau);
      const sig = Math.sinh(E * Math.atanh((E * tau) / tau1));
      taup = Math.sqrt(1 + sig * sig) * tau - sig * tau1;
    }
    const r = Math.sqrt(taup * taup + cl * cl);
    const xip = Math.atan2(taup, cl);
    // sin ξ', cos ξ' = τ'/r, cos λ/r; η' = asinh(q) with e^η' = q + √(q² + 1) (taken without
    // cancellation for q < 0).
    const sx = Number.isFinite(taup) ? taup / r : Math.sign(taup);
    const cx = Number.isFinite(taup) ? cl / r : 0;
    const q = Number.isFinite(taup) ? Math.sin(lam) / r : 0;
    const root = Math.sqrt(q * q + 1);
    const w = q >= 0 ? q + root : 1 / (root - q);
    const etap = Math.log(w);
    const s1 = 2 * sx * cx;
    const c1 = cx * cx - sx * sx;
    const ex = w * w;
    const sh1 = (ex - 1 / ex) / 2;
    const ch1 = (ex + 1 / ex) / 2;
    let s = s1;
    let c = c1;
    let sh = sh1;
    let ch = ch1;
    let xi = xip;
    let eta = etap;
    for (let j = 0; j < 4; j++) {
      const a = ALPHA[j] as number;
      xi += a * s * ch;
      eta += a * c * sh;
      const s2 = s * c1 + c * s1;
      c = c * c1 - s * s1;
      s = s2;
      const sh2 = sh * ch1 + ch * sh1;
      ch = ch * ch1 + sh * sh1;
      sh = sh2;
    }
    this.outE = FALSE_EASTING + K0A * eta;
    this.outN = this.n0 + K0A * xi;
  }

  /** [lat, lon] in degrees of an easting/northing in metres. */
  inverse(easting: number, northing: number): [number, number] {
    const xi = (northing - this.n0) / K0A;
    const eta = (easting - FALSE_EASTING) / K0A;
    let xip = xi;
    let etap = eta;
    for (let j = 1; j <= 4; j++) {
      const b = BETA[j - 1] as number;
      xip -= b * Math.sin(2 * j * xi) * Math.cosh(2 * j * eta);
      etap -= b * Math.cos(2 * j * xi) * Math.sinh(2 * j * eta);
    }
    const s = Math.sinh(etap);
    const c = Math.cos(xip);
    const r = Math.hypot(s, c);
    const lam = Math.atan2(s, c);
    const taup = Math.sin(xip) / r;
    const lat = Math.atan(geographicTau(taup)) / RAD;
    return [lat, this.lon0 + lam / RAD];
  }

  /** The forward projection of many points at once, as two columns (eastings, northings). */
  forwardColumns(lat: ArrayLike<number>, lon: ArrayLike<number>): { x: Float64Array; y: Float64Array } {
    const n = lat.length;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.project(lat[i] as number, lon[i] as number);
      x[i] = this.outE;
      y[i] = this.outN;
    }
    return { x, y };
  }
}

/** The projection of the zone holding a place. */
export const utmFor = (lat: number, lon: number): UtmProjection => new UtmProjection(utmZoneOf(lat, lon));
