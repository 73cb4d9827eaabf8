/**
 * Print grants: what the headless Chromium that prints one PDF report may do, and nothing more.
 *
 * `issue(jobId)` makes a random grant. The printer hands it to Chromium as a cookie over the
 * DevTools pipe (reportPrinter.ts) — never on a command line, never in a URL — and `revoke`s it
 * when the print ends (it also lapses after MAX_GRANT_MS). A request carrying a live grant may:
 *
 * - GET the renderer's static files (the report page is the app's index.html);
 * - call `getReport` for that grant's job only, and `getBasemapInfo` / `getBasemapTile` (its map's streets).
 *
 * Nothing else: no other call, no events, no downloads or uploads, and never a session cookie.
 */
import type { IncomingMessage } from 'node:http';
import type { CallName } from '../../src-shared/contract';
import { cookieValue, newToken, sameSecret } from './session';

export const MAX_GRANT_MS = 3 * 60_000;

/** Browsers share cookies across ports, so the grant's cookie is named after the port too. */
export const printCookieName = (port: number): string => `blotter_print_${port}`;

/** The calls a print grant may make, each with the check of its input against the grant's job. */
const PRINT_CALLS: Partial<Record<CallName, (input: unknown, jobId: string) => boolean>> = {
  getReport: (input, jobId) =>
    typeof input === 'object' && input !== null && (input as { jobId?: unknown }).jobId === jobId,
  getBasemapInfo: () => true,
  getBasemapTile: () => true,
};

export const printMayCall = (name: string, input: unknown, jobId: string): boolean =>
  Object.hasOwn(PRINT_CALLS, name) && (PRINT_CALLS[name as CallName]?.(input, jobId) ?? false);

export type PrintAccess = ReturnType<typeof createPrintAccess>;

export function createPrintAccess(now: () => number = Date.now) {
  const grants = new Map<string, { jobId: string; expires: number }>();
  const live = (value: string | undefined): { jobId: string } | null => {
    if (!value) return null;
    for (const [known, grant] of grants) {
      if (grant.expires < now()) grants.delete(known);
      else if (sameSecret(value, known)) return grant;
    }
    return null;
  };
  return {
    /** A new grant for the report of `jobId`: the cookie value the printer hands to Chromium. */
    issue(jobId: string): string {
      const value = newToken();
      grants.set(value, { jobId, expires: now() + MAX_GRANT_MS });
      return value;
    },
    revoke(value: string): void {
      grants.delete(value);
    },
    /** The job whose report this request may read, from its print cookie; null without a live grant. */
    jobOf(req: IncomingMessage, port: number): string | null {
      return live(cookieValue(req.headers.cookie, printCookieName(port)))?.jobId ?? null;
    },
  };
}
