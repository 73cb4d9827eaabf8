/**
 * The printable report page's address: the app's own page with the hash `#/report?job=ID`. Hosts
 * open it to print a PDF export; the renderer shows the report instead of the app for it.
 */
const JOB = /^[A-Za-z0-9_-]{1,64}$/;

export const reportHash = (jobId: string): string => `#/report?job=${encodeURIComponent(jobId)}`;

/** The job of a report hash, or null when the hash is not the report page's. */
export function reportJobOf(hash: string): string | null {
  const m = /^#\/report\?job=([^&]+)$/.exec(hash);
  const job = m?.[1] ? decodeURIComponent(m[1]) : null;
  return job && JOB.test(job) ? job : null;
}
