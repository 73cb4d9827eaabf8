/**
 * `report --out FILE.pdf [--as-of DAY] [--paper a4|letter]` and the export's filters: the PDF
 * report the app prints (the one report page, printed by headless Chromium through the web host:
 * printHost.ts), for a scheduler. The manifest goes beside it as for every export. Without
 * Chromium it says so and exits 1 before anything starts.
 */
import path from 'node:path';
import { compStatAsOfProblem } from '../../src-shared/analysis';
import { ReportPaper, type ReportParams } from '../../src-shared/reportRoute';
import { one, UsageError, type Parsed } from './args';
import { runExport } from './exportCommand';
import { FILTER_FLAGS, filterFlags } from './filterFlags';
import { EXIT, type Io } from './io';
import { builtRenderer, chromiumOf, requireChromium, withPrintHost } from './printHost';
import { scheduleCommand, sendDueCommand } from './reportSchedulesCommand';
import { withSession } from './session';

export const REPORT_FLAGS = {
  values: ['data-dir', 'out', 'as-of', 'paper', 'weekday', 'time', 'to', ...FILTER_FLAGS],
  booleans: ['include-removed', 'send-due', 'help'],
  words: 3,
};

/** `--as-of` and `--paper` as the report job's parameters (src-shared/reportRoute.ts). */
export function reportParamsOf(p: Parsed): ReportParams {
  const asOf = one(p, 'as-of');
  const problem = asOf === undefined ? null : compStatAsOfProblem(asOf);
  if (problem) throw new UsageError(`--as-of: ${problem}`);
  const paperText = one(p, 'paper');
  const paper = paperText === undefined ? undefined : ReportPaper.safeParse(paperText.toLowerCase());
  if (paper && !paper.success) throw new UsageError(`--paper must be a4 or letter (got "${paperText}").`);
  return { ...(asOf ? { asOf } : {}), ...(paper?.data ? { paper: paper.data } : {}) };
}

export async function reportCommand(p: Parsed, io: Io): Promise<number> {
  if (p.words[0] === 'schedule') return scheduleCommand(p, io);
  if (p.words.length > 0)
    throw new UsageError(`Unexpected argument "${p.words[0]}". Run with --help for usage.`);
  if (p.flags.has('send-due')) return sendDueCommand(p, io);
  const out = path.resolve(one(p, 'out', true));
  if (path.extname(out).toLowerCase() !== '.pdf')
    throw new UsageError(`--out names the PDF to write, ending in .pdf (got "${one(p, 'out', true)}").`);
  const params = reportParamsOf(p);
  const filtersIn = filterFlags(p);
  const chromium = chromiumOf(io.env);
  await requireChromium(chromium);
  const rendererDir = builtRenderer();
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const filters = await filtersIn(s);
    const done = await withPrintHost(s, { rendererDir, chromium, destination: () => out }, (printing) =>
      runExport(printing, { format: 'pdf', filters, report: params }),
    );
    io.err(
      `report: ${done.total} incidents, written to ${done.file?.path ?? out}` +
        (done.file ? ` (manifest: ${done.file.manifestName})` : '') +
        '\n',
    );
    io.out(
      `${JSON.stringify({ file: done.file?.path ?? out, incidents: done.total, paper: params.paper ?? 'letter', ...(params.asOf ? { asOf: params.asOf } : {}) })}\n`,
    );
    return EXIT.ok;
  });
}
