/**
 * How a host knows the page it is about to print is the report it asked for. The report page
 * (src-renderer/report/ReportPage.tsx) sets on <body>:
 *
 * - `data-report-job="ID"` and `data-report-ready="true"` once the job's report is drawn;
 * - `data-report-error="why"` when it could not get the job's figures.
 *
 * Anything else — a sign-in page, an HTTP error page, the app instead of the report, another job's
 * report — is not printed: the job fails with the reason. Used by both hosts' printers.
 */

/** Evaluated in the page: the state a printer reads (JSON-serialisable). */
export const REPORT_STATE_SCRIPT = `(() => {
  const b = document.body;
  return {
    loaded: document.readyState === 'complete',
    app: !!document.getElementById('root'),
    title: document.title.slice(0, 120),
    job: b ? b.dataset.reportJob ?? null : null,
    ready: b ? b.dataset.reportReady === 'true' : false,
    error: b ? b.dataset.reportError ?? null : null,
  };
})()`;

export type ReportPageState = {
  loaded: boolean;
  app: boolean;
  title: string;
  job: string | null;
  ready: boolean;
  error: string | null;
};

export type Verdict = { print: true } | { wait: true } | { fail: string };

/** What to do with a page in `state` when printing the report of `jobId`. */
export function judgeReportPage(state: Partial<ReportPageState> | null | undefined, jobId: string): Verdict {
  if (!state) return { wait: true };
  if (state.error) return { fail: `The report page could not be drawn: ${state.error}` };
  if (state.ready && state.job === jobId) return { print: true };
  if (state.ready)
    return { fail: 'The page that loaded is the report of another job, so nothing was printed.' };
  if (state.loaded && !state.app) {
    const title = state.title ? ` ("${state.title}")` : '';
    return { fail: `The page that loaded${title} is not Blotter's report, so nothing was printed.` };
  }
  return { wait: true };
}
