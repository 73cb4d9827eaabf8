/** The crime categories the API's spec lists as observed values of an incident's `type`. */
export const CRIME_TYPES = [
  'Shooting',
  'Assault',
  'Robbery',
  'Burglary',
  'Theft',
  'Arson',
  'Vandalism',
  'Arrest',
  'Other',
] as const;

export type CrimeType = (typeof CRIME_TYPES)[number];

/** The v1 surface's structured category: a lower-case form of the legacy type. */
export type CrimeCategory = Lowercase<CrimeType>;

export function isCrimeType(value: unknown): value is CrimeType {
  return typeof value === 'string' && (CRIME_TYPES as readonly string[]).includes(value);
}
