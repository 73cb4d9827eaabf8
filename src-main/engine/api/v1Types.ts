/**
 * Crime types between the two surfaces' spellings: the live surface (and the app) says `Theft`, v1
 * says `theft` and keeps the original as `raw_type` (incidents endpoint only). A v1 incident's app
 * type is its `raw_type` when given — kept as the service wrote it — else the known type of that
 * lower-case name, else the name with its first letter raised (a category the spec does not list).
 */
import { CRIME_TYPES } from '../../../src-shared/crimeTypes';

/** The v1 spelling of an app type (what `types=` sends on v1). */
export const toV1Type = (appType: string): string => appType.trim().toLowerCase();

/** The app's type of a v1 incident. */
export function fromV1Type(type: string, rawType?: string | null): string {
  const raw = rawType?.trim();
  if (raw) return raw;
  const lower = type.trim().toLowerCase();
  const known = CRIME_TYPES.find((t) => t.toLowerCase() === lower);
  if (known) return known;
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
