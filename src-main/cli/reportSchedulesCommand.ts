/**
 * `report --send-due` (for cron) and `report schedule list | add | remove ID`: emailed bulletins.
 * `--send-due` sends the schedules that are due through the print host (printHost.ts) — claim,
 * print, mail, record — and says what it sent; a missed week is caught up once. The mail password
 * comes from BLOTTER_SMTP_PASSWORD where no keychain is reachable (key.ts). In office mode only the
 * desktop leading the office's report mail sends (`"leader": false` otherwise).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WEEKDAY_NAMES, type ReportSchedule, type ScheduleFeature } from '../../src-shared/reportSchedules';
import { sendDueReports } from '../engine/index';
import { one, parseId, UsageError, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { filterFlags } from './filterFlags';
import { builtRenderer, chromiumOf, requireChromium, withPrintHost } from './printHost';
import { reportParamsOf } from './reportCommand';
import { withSession, type Session } from './session';

export async function sendDueCommand(p: Parsed, io: Io): Promise<number> {
  const chromium = chromiumOf(io.env);
  await requireChromium(chromium);
  const rendererDir = builtRenderer();
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'blotter-send-'));
    let n = 0;
    try {
      const run = await withPrintHost(
        s,
        { rendererDir, chromium, destination: () => path.join(scratch, `report-${++n}.pdf`) },
        (_printing, engine) => sendDueReports(engine),
      );
      if (!run.leader) io.err('report: another desktop of the office sends the scheduled reports.\n');
      for (const r of run.reports)
        io.err(
          `report: schedule ${r.scheduleId} (due ${new Date(r.dueAt).toISOString()}): ${r.sent ? 'sent' : `not sent: ${r.error ?? ''}`}\n`,
        );
      const sent = run.reports.filter((r) => r.sent).length;
      io.out(
        `${JSON.stringify({ leader: run.leader, sent, failed: run.reports.length - sent, reports: run.reports })}\n`,
      );
      return sent === run.reports.length ? EXIT.ok : EXIT.failed;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}

const WEEKDAYS = WEEKDAY_NAMES.map((d) => d.toLowerCase());

function weekdayOf(text: string): number {
  const word = text.trim().toLowerCase();
  const day = /^[1-7]$/.test(word)
    ? Number(word)
    : WEEKDAYS.findIndex((d) => word.length >= 3 && d.startsWith(word)) + 1;
  if (day < 1) throw new UsageError(`--weekday takes a day name or 1-7, Monday 1 (got "${text}").`);
  return day;
}

/** `--area-id ID` or `--layer N --feature NAME` (report's flags; a feature read in the session). */
function targetOf(p: Parsed): (s: Session) => Promise<{ areaId: number } | { feature: ScheduleFeature }> {
  const areaId = one(p, 'area-id');
  const named = one(p, 'feature');
  if ((areaId === undefined) === (named === undefined))
    throw new UsageError('report schedule add takes --area-id ID or --layer N --feature NAME (one of them).');
  if (areaId !== undefined) {
    const id = parseId('--area-id', areaId);
    return async () => ({ areaId: id });
  }
  if (one(p, 'buffer-ft') !== undefined || one(p, 'buffer-m') !== undefined)
    throw new UsageError('A scheduled bulletin is for the feature itself: drop --buffer-ft/--buffer-m.');
  // Only the layer and feature flags: --to here is the recipients, not a filter's last day.
  const step = filterFlags({
    ...p,
    values: new Map([...p.values].filter(([k]) => k === 'layer' || k === 'feature')),
    flags: new Set(),
  });
  return async (s) => {
    const { feature } = await step(s);
    if (!feature) throw new UsageError('--feature needs --layer NAME|ID.');
    return { feature: { layerId: feature.layerId, featureId: feature.featureId } };
  };
}

const line = (s: ReportSchedule): string =>
  `${s.id}\t${s.feature ? s.areaName : `${s.areaName} (area ${s.areaId})`}\tevery ${WEEKDAY_NAMES[s.weekday - 1]} ${s.time} ${s.zone}\t${s.paper}\t` +
  `to ${s.to?.join(', ') ?? "the alerts' recipients"}\tnext ${new Date(s.nextDueAt).toISOString()}` +
  (s.lastError ? `\tlast error: ${s.lastError}` : '');

export async function scheduleCommand(p: Parsed, io: Io): Promise<number> {
  const [, action, id] = p.words;
  if (action === 'list' || action === 'add' || action === 'remove') {
    const input =
      action === 'add'
        ? {
            target: targetOf(p),
            ...(one(p, 'weekday') ? { weekday: weekdayOf(one(p, 'weekday') as string) } : {}),
            ...(one(p, 'time') ? { time: one(p, 'time') } : {}),
            ...(reportParamsOf(p).paper ? { paper: reportParamsOf(p).paper } : {}),
            ...(one(p, 'to') ? { to: (one(p, 'to') as string).split(',').map((a) => a.trim()) } : {}),
          }
        : null;
    const removing = action === 'remove' ? parseId('schedule id', id ?? '') : null;
    return withSession(io, one(p, 'data-dir'), async (s) => {
      if (input) {
        const { target, ...rest } = input;
        const saved = await s.call('saveReportSchedule', { schedule: { ...(await target(s)), ...rest } });
        io.err(`${line(saved)}\n`);
        io.out(`${JSON.stringify(saved)}\n`);
      } else if (removing !== null) {
        const { removed } = await s.call('removeReportSchedule', { id: removing });
        if (!removed) {
          io.err(`blotter: there is no report schedule ${removing}.\n`);
          return EXIT.failed;
        }
        io.out(`${JSON.stringify({ removed })}\n`);
      } else {
        const { schedules } = await s.call('listReportSchedules', {});
        for (const sc of schedules) io.err(`${line(sc)}\n`);
        io.out(`${JSON.stringify({ schedules })}\n`);
      }
      return EXIT.ok;
    });
  }
  throw new UsageError(
    'report schedule takes list, add --area-id ID | --layer N --feature NAME [--weekday mon] [--time 07:00] [--paper a4] [--to a@b,c@d], or remove ID.',
  );
}
