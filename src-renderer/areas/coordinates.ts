/**
 * Typed coordinates for a new area — "39.7392, -104.9903", "39.74N 104.99W" (the gazetteer's
 * parser) — and a radius in miles, as a circle shape or a problem per field. Pure.
 */
import { parseCoordinates } from '../../src-shared/geo';
import { AreaShape, MAX_AREA_RADIUS_MI } from '../../src-shared/sync';

export type CircleForm = { centre: string; radius: string };
export type CircleErrors = { centre?: string; radius?: string };

/** [lat, lon] of typed coordinates; null when they are not a position on Earth. */
export function parseLatLon(text: string): [number, number] | null {
  const found = parseCoordinates(text);
  return found ? [found.lat, found.lon] : null;
}

/** The circle a form describes, or the problem of each field in plain words. */
export function circleOf(form: CircleForm): { shape: AreaShape } | { errors: CircleErrors } {
  const errors: CircleErrors = {};
  const centre = parseLatLon(form.centre);
  if (!centre) errors.centre = 'Type the centre as latitude, longitude — for example 39.7392, -104.9903.';
  const radius = Number(form.radius);
  if (!form.radius.trim() || !Number.isFinite(radius) || radius <= 0)
    errors.radius = 'The radius must be a number of miles greater than 0.';
  else if (radius > MAX_AREA_RADIUS_MI)
    errors.radius = `The radius may be at most ${MAX_AREA_RADIUS_MI} miles.`;
  if (!centre || errors.radius) return { errors };
  const parsed = AreaShape.safeParse({ kind: 'circle', lat: centre[0], lon: centre[1], radiusMi: radius });
  if (!parsed.success) return { errors: { centre: parsed.error.issues[0]?.message ?? 'Check the centre.' } };
  return { shape: parsed.data };
}
