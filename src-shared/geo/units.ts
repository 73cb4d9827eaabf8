/**
 * Units and the degree/mile conversions. The sphere's figures are what every distance is measured
 * with; the ellipsoid's are for quick, approximate drawings (scale bars, outlines) only.
 */

/** Radians per degree. */
export const RAD = Math.PI / 180;

/** Mean Earth radius in miles: every great-circle distance in Blotter (engine, simulator, benches). */
export const EARTH_RADIUS_MI = 3958.8;

/** Miles in one degree of arc on that sphere (≈ 69.09): a degree of latitude, or of longitude at the equator. */
export const MILES_PER_DEGREE = (EARTH_RADIUS_MI * Math.PI) / 180;

/** A degree of latitude on the ellipsoid, mid-latitude figure (68.7 at the equator, 69.4 at the poles). */
export const MILES_PER_DEGREE_LAT = 69.05;

/** The shortest degree of latitude on the ellipsoid (at the equator): divide by it for a box that is never short. */
export const MIN_MILES_PER_DEGREE_LAT = 68.7;

/** A degree of longitude at the equator on the ellipsoid; times cos(latitude) elsewhere. */
export const MILES_PER_DEGREE_LON_AT_EQUATOR = 69.17;

export const METRES_PER_MILE = 1609.344;
