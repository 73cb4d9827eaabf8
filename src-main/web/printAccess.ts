/**
 * One-time sign-ins for the headless Chromium that prints a report: `issue(jobId)` gives a random
 * token that `redeem` accepts once, within a minute, and answers with the job it was issued for.
 * The launch token never leaves the process (no command line carries it).
 */
import { newToken, sameSecret } from './session';

const TTL_MS = 60_000;

export function createPrintAccess(now: () => number = Date.now) {
  const issued = new Map<string, { jobId: string; expires: number }>();
  return {
    issue(jobId: string): string {
      const token = newToken();
      issued.set(token, { jobId, expires: now() + TTL_MS });
      return token;
    },
    /** The job of a valid, unused token (which is then spent), or null. */
    redeem(token: string | null): string | null {
      if (!token) return null;
      for (const [known, grant] of issued) {
        if (grant.expires < now()) issued.delete(known);
        else if (sameSecret(token, known)) {
          issued.delete(known);
          return grant.jobId;
        }
      }
      return null;
    },
  };
}
