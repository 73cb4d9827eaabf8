/**
 * v1 cursors: opaque base64url tokens holding the last (occurred_at, cdid) served and a fingerprint
 * of the query, so paging is keyset-based (stable while data changes) and bound to its query.
 */
import { hashInts } from '../data/prng';
import { ApiError } from './respond';

export type CursorPosition = { occurredAt: number; cdid: number };

/** A fingerprint of the query parameters that define the result set. */
export function queryFingerprint(parts: readonly (string | number | undefined)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.map((p) => String(p ?? '')).join('|')) h = hashInts(h, ch.charCodeAt(0), 3);
  return h;
}

export function encodeCursor(pos: CursorPosition, fingerprint: number): string {
  return Buffer.from(JSON.stringify([1, pos.occurredAt, pos.cdid, fingerprint]), 'utf8').toString(
    'base64url',
  );
}

export function decodeCursor(text: string, fingerprint: number): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    parsed[0] !== 1 ||
    !parsed.every((n) => Number.isFinite(n))
  ) {
    throw new ApiError(400, ['cursor is not a cursor this service issued']);
  }
  if (parsed[3] !== fingerprint) {
    throw new ApiError(400, ['cursor belongs to a different query; repeat the same parameters with it']);
  }
  return { occurredAt: parsed[1] as number, cdid: parsed[2] as number };
}
